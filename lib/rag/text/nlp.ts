/**
 * The wink-nlp adapter: tokens with exact character offsets, lemmas, parts of speech, sentence
 * spans and entity types, for passages and questions alike. Everything language-specific the
 * answerer knows about English text comes from here (wink-eng-lite-web-model, MIT), not from
 * hand-written tokenizers or stemmers.
 */
import winkNLP, { type ItemEntity, type ItemSentence, type ItemToken, type ItsFunction } from "wink-nlp";
import model from "wink-eng-lite-web-model";
import { isKnownWord } from "./wordnet";

/** wink's entity types that the answerer uses as answer types. */
export const entityTypes = ["DATE", "TIME", "DURATION", "PERCENT", "MONEY", "CARDINAL", "ORDINAL", "EMAIL", "URL", "PHONE"] as const;
export type EntityType = (typeof entityTypes)[number];

export interface TextToken {
  /** The token as written (text.slice(start, end)). */
  text: string;
  start: number;
  end: number;
  /** Lowercased lemma: the key tokens are matched by. */
  lemma: string;
  /** Universal part of speech (NOUN, PROPN, VERB, AUX, ADJ, ADV, NUM, PUNCT, SPACE, …). */
  pos: string;
  /** wink's token type (word, number, punctuation, email, url, ordinal, currency, tabCRLF, …). */
  type: string;
  stop: boolean;
  /** A word that carries meaning: a noun, verb, adjective, adverb, number or symbol-free identifier, not a stopword. */
  content: boolean;
}

export interface EntitySpan {
  type: EntityType;
  /** Token indices, inclusive start, exclusive end. */
  from: number;
  to: number;
  start: number;
  end: number;
  text: string;
}

export interface Annotated {
  text: string;
  tokens: TextToken[];
  entities: EntitySpan[];
  /** Sentence spans as character offsets. */
  sentences: Array<{ start: number; end: number }>;
}

const CONTENT_POS = new Set(["NOUN", "PROPN", "VERB", "ADJ", "ADV", "NUM", "X"]);
const nlp = winkNLP(model, ["sbd", "pos", "ner"]);
const its = nlp.its;
// wink's typings declare `lemma` with its add-on argument, which `out` does not accept: same function, narrower type.
const lemmaOf = its.lemma as unknown as ItsFunction<string>;
const knownEntity = new Set<string>(entityTypes);

/** Two or more capitals and a lowercase s: the plural of an initialism. */
const INITIALISM_PLURAL = /^\p{Lu}{2,}s$/u;

/** A clock time, or a range of two ("9:00", "10:30-12:00"). */
const CLOCK_TIME = /^(?:[01]?\d|2[0-3]):[0-5]\d(?:[–-](?:[01]?\d|2[0-3]):[0-5]\d)?$/;

/**
 * A telephone number as written: an area code, then two groups of three or four digits, with a
 * country code before it ("+44 20 7946 0958"), the area code in brackets ("(555) 301-2280"), or the
 * same dash or dot twice ("555.301.2280"). Digit groups set apart by spaces alone are as often a
 * large number ("10 000 000"). wink has no such entity and reads the groups as counts.
 */
const PHONE = /(?<![\p{L}\p{N}])(?:\+\d{1,3}[ .-]?(?:\(\d{1,4}\)|\d{1,4})[ .-]\d{3,4}[ .-]\d{3,4}|\(\d{2,4}\)[ .-]?\d{3,4}[ .-]\d{3,4}|\d{2,4}([.-])\d{3,4}\1\d{3,4})(?![\p{L}\p{N}]|[.,-]\d)/gu;

/** What joins the two ends of a range: a dash, spaced or not ("3–9", "3 - 9"). */
const RANGE_DASH = /^\s*[-–—]\s*$/;

/** Private-use code points (PDF bullet glyphs) and other marks that carry no words. */
const NON_WORD = /^[\p{Co}\p{S}\p{P}\s]*$/u;

/** A lemma without its accents ("fiancée" → "fiancee", "naïve" → "naive"): a question is often typed without them, and WordNet spells its entries so. */
function foldMarks(word: string): string {
  return /[^\x00-\x7f]/.test(word) ? word.normalize("NFD").replace(/\p{M}+/gu, "") : word;
}

/** Hyphens inside a word ("pre-processing", "e-mail"): the same word is often written closed ("preprocessing", "email"). */
const foldHyphens = (word: string) => (word.includes("-") ? word.replace(/(?<=[\p{L}\p{N}])-(?=[\p{L}\p{N}])/gu, "") : word);

/** A pronoun with its clitic left whole by wink ("I'm", "we’re"): no more meaning than the pronoun. */
const CLITIC = /^(\p{L}+)['’](?:m|re|ve|ll|d)$/iu;
const isStopWithClitic = (word: string) => {
  const stem = CLITIC.exec(word)?.[1].toLowerCase();
  return !!stem && wordAlone(stem).stop;
};

/** Title-case words are tagged PROPN and keep their inflection ("Hours", "Students"): lemmatise the lowercase word on its own. */
function nounLemma(word: string): string {
  const alone = /^\p{L}+$/u.test(word) ? wordAlone(word) : undefined;
  return alone?.pos === "NOUN" ? alone.lemma : word;
}

/**
 * A plural wink's lite model leaves as written ("saturdays", "fridays"): English adds an s, and
 * WordNet, which lists base forms, knows the word without it and not with it ("physics", "lens" stay).
 */
function singular(lemma: string): string {
  return /[^su]s$/.test(lemma) && !isKnownWord(lemma) && isKnownWord(lemma.slice(0, -1)) ? lemma.slice(0, -1) : lemma;
}

/** A single word as wink reads it on its own (its first token), remembered: headings' words and clitic stems recur. */
const aloneWords = new Map<string, { pos: string; lemma: string; stop: boolean }>();
function wordAlone(word: string): { pos: string; lemma: string; stop: boolean } {
  let read = aloneWords.get(word);
  if (!read) {
    const t = nlp.readDoc(word).tokens().itemAt(0);
    read = { pos: t ? String(t.out(its.pos)) : "", lemma: t ? String(t.out(lemmaOf)).toLowerCase() : word, stop: Boolean(t?.out(its.stopWordFlag)) };
    if (aloneWords.size > 50_000) aloneWords.clear();
    aloneWords.set(word, read);
  }
  return read;
}

/**
 * wink's lite model tags a bare year ("in 1066", "February 1082") CARDINAL. A four-digit number
 * from 1000 to 2099 is read as a year unless a noun before it makes it an identifier ("Room
 * 1204", "CS 1300"; a month name, inside a date entity, does not) or a common noun after it
 * makes it a quantity ("1500 soldiers").
 */
function isYear(e: EntitySpan, tokens: readonly TextToken[], entities: readonly EntitySpan[]): boolean {
  if (e.to - e.from !== 1 || !/^(1\d{3}|20\d{2})$/.test(e.text)) return false;
  const before = tokens[e.from - 1];
  const dated = (i: number) => entities.some((d) => d !== e && d.from <= i && i < d.to && d.type !== "CARDINAL");
  if (before && (before.pos === "NOUN" || before.pos === "PROPN") && !dated(e.from - 1)) return false;
  return tokens[e.to]?.pos !== "NOUN";
}

/** The signs after a grade letter, as one spelling: the minus sign (U+2212) and the en dash print a hyphen-minus. */
const GRADE_SIGN: ReadonlyMap<string, string> = new Map([
  ["+", "+"],
  ["-", "-"],
  ["\u2212", "-"],
  ["\u2013", "-"],
]);

function annotateUncached(text: string): Annotated {
  const doc = nlp.readDoc(text);
  const tokens: TextToken[] = [];
  let cursor = 0;
  doc.tokens().each((t: ItemToken) => {
    const value = t.out() as string;
    // wink is lossless except for a few code points it skips (private-use glyphs): find each token in the text.
    const found = text.indexOf(value, cursor);
    const start = found === -1 ? cursor : found;
    const end = found === -1 ? cursor : start + value.length;
    cursor = end;
    const pos = t.out(its.pos) as string;
    const type = t.out(its.type) as string;
    const clitic = isStopWithClitic(value);
    const lemma = foldHyphens(foldMarks(String(t.out(lemmaOf)).toLowerCase()));
    // wink's stop list holds some inflections of a verb and not others ("used" but not "use", "give" but not "gave"): a verb is a stopword when its lemma is.
    const stop = clitic || (pos === "VERB" && lemma !== value.toLowerCase() && /^\p{L}+$/u.test(lemma) ? wordAlone(lemma).stop : Boolean(t.out(its.stopWordFlag)));
    const wordy = (type === "word" || type === "number" || type === "ordinal" || type === "alpha_numeric") && !NON_WORD.test(value);
    // The stop list is lexical; the tagger sees context: a stop-listed noun or adjective ("due", "part", "name") still carries meaning.
    const content = wordy && CONTENT_POS.has(pos) && !clitic && (!stop || ((pos === "NOUN" || pos === "ADJ" || pos === "PROPN") && value.length >= 3));
    // An initialism's plural ("TAs", "PDFs") is the initialism: English adds a lowercase s to it.
    const read = INITIALISM_PLURAL.test(value) ? value.slice(0, -1).toLowerCase() : pos === "PROPN" ? nounLemma(lemma) : lemma;
    const base = pos === "NOUN" || pos === "PROPN" ? singular(read) : read;
    tokens.push({ text: value, start, end, lemma: base, pos, type, stop, content });
  });
  // "an A", "A 93–100", "Plan A is …": a capital letter after an article, or with no noun phrase after it, is the letter itself (a grade, an option), not the article.
  tokens.forEach((t, i) => {
    if (t.pos !== "DET" || !/^[A-Z]$/.test(t.text)) return;
    const next = tokens.slice(i + 1).find((n) => n.pos !== "SPACE");
    const previous = tokens.slice(0, i).findLast((n) => n.pos !== "SPACE");
    if (previous?.pos === "DET" || !["NOUN", "PROPN", "ADJ", "ADV", "VERB"].includes(next?.pos ?? "")) Object.assign(t, { pos: "NOUN", stop: false, content: true });
  });
  // "A-", "B+", "C−": a capital letter with a plus or minus flush after it is one mark (a grade, a rating), not the letter: "A-" is not "A".
  tokens.forEach((t, i) => {
    const sign = tokens[i + 1];
    const after = tokens[i + 2];
    if (!/^[A-Z]$/.test(t.text) || !sign || sign.start !== t.end || !GRADE_SIGN.has(sign.text)) return;
    if (after && after.start === sign.end && /^[\p{L}\p{N}+]/u.test(after.text)) return;
    Object.assign(t, { text: t.text + sign.text, end: sign.end, lemma: t.text.toLowerCase() + GRADE_SIGN.get(sign.text), pos: "NOUN", stop: false, content: true });
    Object.assign(sign, { stop: true, content: false });
  });
  // "141B", "2b": wink splits a number from the letter written flush after it, but it is one code (a course number, a room), one word to FTS5 as well: the number carries the whole code as its lemma.
  const codes = new Set<number>();
  tokens.forEach((t, i) => {
    const letter = tokens[i + 1];
    const after = tokens[i + 2];
    if (t.pos !== "NUM" || !/^\d+$/.test(t.text) || !letter || letter.start !== t.end || !/^\p{L}$/u.test(letter.text)) return;
    if (after && after.start === letter.end && /^[\p{L}\p{N}]/u.test(after.text)) return;
    Object.assign(t, { lemma: (t.text + letter.text).toLowerCase(), content: true });
    Object.assign(letter, { stop: true, content: false });
    codes.add(i);
  });
  const spanOf = (from: number, to: number) => ({ start: tokens[from]?.start ?? 0, end: tokens[to]?.end ?? 0 });
  const entities: EntitySpan[] = [];
  doc.entities().each((e: ItemEntity) => {
    const type = e.out(its.type) as string;
    if (!knownEntity.has(type)) return;
    const [from, last] = e.out(its.span) as unknown as [number, number];
    const { start, end } = spanOf(from, last);
    if (type === "CARDINAL" && from === last && codes.has(from)) return; // a code, not a count
    entities.push({ type: type as EntityType, from, to: last + 1, start, end, text: text.slice(start, end) });
  });
  for (const e of entities) if (e.type === "CARDINAL" && isYear(e, tokens, entities)) e.type = "DATE";
  // wink reads "Jun 3–9" as a date and a count: a later day of the month joined to a date's day by a dash ends the date's range.
  for (let k = entities.length - 1; k > 0; k--) {
    const [date, end] = [entities[k - 1], entities[k]];
    const day = Number(end.text);
    const first = Number(/(\d+)$/.exec(date.text)?.[1]);
    if (end.type !== "CARDINAL" || date.type !== "DATE" || !RANGE_DASH.test(text.slice(date.end, end.start)) || !(day <= 31 && day > first)) continue;
    Object.assign(date, { to: end.to, end: end.end, text: text.slice(date.start, end.end) });
    entities.splice(k, 1);
  }
  // wink's lite model knows "9:00pm" as a time but not "9:00" or "1:30-3:00": a number written h:mm is a clock time.
  tokens.forEach((t, i) => {
    if (t.type === "number" && CLOCK_TIME.test(t.text) && !entities.some((e) => e.from <= i && i < e.to)) entities.push({ type: "TIME", from: i, to: i + 1, start: t.start, end: t.end, text: t.text });
  });
  // wink's lite model reads "$40" and "¥1200" as money but "£32.99" and "€15" as bare numbers: a currency sign flush before a number makes it a sum.
  tokens.forEach((t, i) => {
    const amount = tokens[i + 1];
    if (t.type !== "currency" || !amount || amount.type !== "number" || amount.start !== t.end || entities.some((e) => e.type === "MONEY" && e.from <= i + 1 && i + 1 < e.to)) return;
    const bare = entities.findIndex((e) => e.from === i + 1 && e.to === i + 2);
    if (bare >= 0) entities.splice(bare, 1);
    entities.push({ type: "MONEY", from: i, to: i + 2, start: t.start, end: amount.end, text: text.slice(t.start, amount.end) });
  });
  for (const m of text.matchAll(PHONE)) {
    const [start, end] = [m.index, m.index + m[0].length];
    const from = tokens.findIndex((t) => t.end > start);
    const to = tokens.findIndex((t) => t.start >= end);
    const within = (e: EntitySpan) => e.start >= start && e.end <= end;
    // Digits a date or time already claims are not a number to call; the counts wink made of the groups go.
    if (from < 0 || entities.some((e) => e.type !== "CARDINAL" && e.start < end && start < e.end && !within(e))) continue;
    for (let k = entities.length - 1; k >= 0; k--) if (within(entities[k])) entities.splice(k, 1);
    entities.push({ type: "PHONE", from, to: to < 0 ? tokens.length : to, start, end, text: m[0] });
  }
  entities.sort((a, b) => a.from - b.from);
  const sentences: Annotated["sentences"] = [];
  doc.sentences().each((s: ItemSentence) => {
    const [from, last] = s.out(its.span) as unknown as [number, number];
    const span = spanOf(from, last);
    const previous = sentences.at(-1);
    // wink ends a sentence at the "!" of "a != b" and at the dots of "www.example.org": a sentence never starts flush against the one before it.
    if (previous && span.start === previous.end && ".!?".includes(text[previous.end - 1]) && /\S/.test(text[span.start] ?? "")) previous.end = span.end;
    else sentences.push(span);
  });
  return { text, tokens, entities, sentences };
}

/** Passages recur across questions (the same chunks are retrieved again): remember recent ones. */
const cache = new Map<string, Annotated>();
const CACHE_LIMIT = 4000;

/** Tokens, entities and sentences of a text. Pure; results are cached by text. */
export function annotate(text: string): Annotated {
  const hit = cache.get(text);
  if (hit) {
    cache.delete(text);
    cache.set(text, hit);
    return hit;
  }
  const value = annotateUncached(text);
  cache.set(text, value);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  return value;
}

/** Lemmas of the content words of a text, in order. */
export function contentLemmas(text: string): string[] {
  return annotate(text)
    .tokens.filter((t) => t.content)
    .map((t) => t.lemma);
}
