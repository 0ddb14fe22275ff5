/**
 * Symbols a text defines for its quantities, the ways science and engineering notes introduce
 * them: after the quantity's name ("the hydraulic conductivity K is …", "specific yield (Sy)"),
 * or before it ("where s is the drawdown", "The margin of error is ME = …"). A worked result
 * states its quantity by symbol alone ("K = … = 0.05 cm/s"); a student asks for it in words.
 */
import type { Annotated, TextToken } from "./nlp";

/** Symbol as written → the content lemmas of the quantity's name. */
export type Symbols = ReadonlyMap<string, readonly string[]>;

/** A letter (Latin or Greek) and up to two more letters or digits: "K", "Sy", "H0", "ME". */
const SYMBOL_SHAPE = /^[\p{Script=Latin}\p{Script=Greek}][\p{L}\p{N}]{0,2}$/u;
/** How many words of a name a symbol may stand for ("rate of change of pressure" is too long to be one). */
const MAX_NAME_WORDS = 4;
const NAME_POS = new Set(["NOUN", "PROPN", "ADJ"]);
const NOUN_POS = new Set(["NOUN", "PROPN"]);

/**
 * A token that can be a symbol: one letter that is not a word of its sentence (the article "a",
 * the pronoun "I"), or a capital followed by capitals, digits or lowercase letters ("Sy", "H0");
 * a lowercase word ("is", "ne") is read as a word.
 */
function isSymbol(t: TextToken | undefined): t is TextToken {
  if (!t || !SYMBOL_SHAPE.test(t.text)) return false;
  if (t.text.length === 1) return !["DET", "PRON", "CCONJ", "ADP", "AUX"].includes(t.pos);
  return /^\p{Lu}/u.test(t.text);
}


/** The name ending just before word `end` (exclusive): nouns and adjectives, "of" between nouns ("margin of error"); it must hold a noun ("Michaelis constant": the tagger reads "constant" as an adjective). */
function nameBefore(ws: readonly TextToken[], end: number): TextToken[] {
  const name: TextToken[] = [];
  for (let k = end - 1; k >= 0 && name.length < MAX_NAME_WORDS; k--) {
    const t = ws[k];
    if (NAME_POS.has(t.pos) && !isSymbol(t)) name.unshift(t);
    else if (t.text.toLowerCase() === "of" && name.length && NOUN_POS.has(name[0].pos) && k > 0 && NOUN_POS.has(ws[k - 1].pos)) name.unshift(t);
    else break;
  }
  return name.some((t) => NOUN_POS.has(t.pos)) ? name : [];
}

/** The name starting at word `from`, after an optional determiner: up to a word that is no part of it. */
function nameAfter(ws: readonly TextToken[], from: number): TextToken[] {
  let k = from;
  if (ws[k]?.pos === "DET") k++;
  const name: TextToken[] = [];
  for (; k < ws.length && name.length < MAX_NAME_WORDS; k++) {
    const t = ws[k];
    if (NAME_POS.has(t.pos) && !isSymbol(t)) name.push(t);
    else if (t.text.toLowerCase() === "of" && name.length && NOUN_POS.has(ws[k + 1]?.pos ?? "")) name.push(t);
    else break;
  }
  while (name.length && !NOUN_POS.has(name.at(-1)!.pos)) name.pop();
  return name;
}

const lemmasOf = (name: readonly TextToken[]) => name.filter((t) => t.content).map((t) => t.lemma);

/** Every symbol the text defines, the first definition of each kept. */
export function symbolsIn({ tokens }: Annotated): Map<string, string[]> {
  const out = new Map<string, string[]>();
  // The words, without the spaces between them.
  const ws = tokens.filter((t) => t.pos !== "SPACE");
  const define = (symbol: TextToken, name: readonly TextToken[]) => {
    const lemmas = lemmasOf(name);
    if (lemmas.length && !out.has(symbol.text)) out.set(symbol.text, lemmas);
  };
  ws.forEach((t, k) => {
    if (!isSymbol(t)) return;
    const prev = ws[k - 1];
    const next = ws[k + 1];
    // "the hydraulic conductivity K is …", "specific yield Sy = 0.2": the name, then its symbol, then no more of a name.
    if (prev && NOUN_POS.has(prev.pos) && !(next && (NAME_POS.has(next.pos) || next.pos === "NUM"))) define(t, nameBefore(ws, k));
    // "specific retention (Sr)"
    if (prev?.text === "(" && next?.text === ")") define(t, nameBefore(ws, k - 1));
    // "where s is the drawdown", "and T the transmissivity" is too loose: a verb of naming must join them.
    if (prev && ["where", "and", ","].includes(prev.text.toLowerCase()) && next && ["is", "denotes"].includes(next.text.toLowerCase())) define(t, nameAfter(ws, k + 2));
    // "The margin of error is ME = t* × SE": the name is the symbol it works out.
    if (prev?.text.toLowerCase() === "is" && next && (next.text === "=" || next.text === "≈")) define(t, nameBefore(ws, k - 1));
  });
  return out;
}
