/**
 * Features of an answer unit for one requested part: how much of the part's focus it covers
 * (exactly, through WordNet-related words, or only in its header/lead-in), how close together,
 * whether it holds the kind of answer asked for, what kind of unit it is, and where retrieval
 * ranked its passage. Each feature lies in [0, 1] (or a small bounded range) so that fitted
 * weights stay comparable; the model (model.ts) turns them into a calibrated probability.
 */
import { isName, type RequestedPart } from "../analyze/analyze";
import { ANAPHORS, CONCLUSION_SEEDS, DEFINING_VERBS, NUMBER_WORDS, PLACE_PREPOSITIONS, REASON_MARKERS, TYPE_NOUNS, type AnswerType } from "../lexicon";
import { abbreviationsIn } from "../text/abbreviations";
import { escapeRegExp } from "../text/regexp";
import { symbolsIn, type Symbols } from "../text/symbols";
import { annotate, contentLemmas, type Annotated, type EntitySpan, type EntityType, type TextToken } from "../text/nlp";
import editDistance from "damerau-levenshtein";
import { classesOf, isCompoundKindOf, isKnownWord, isPlaceWord, isTimeNoun, relatedWords } from "../text/wordnet";
import { itemNounOf, MAX_LABEL_WORDS, partLetterOf, SECTION_NUMBER, TERMINAL, unitKinds, type Unit } from "./units";

export const featureNames = [
  "cover",
  "coverRelated",
  "coverRelated2",
  "coverContext",
  "coverSection",
  "nounCover",
  "density",
  "bigram",
  "typeMatch",
  "typeMissing",
  "novelty",
  "scope",
  "rank",
  "length",
  "endsColon",
  "question",
  "definitionForm",
  "reasonMarker",
  "requiredId",
  "requiredMissing",
  "titleLine",
  "passageCover",
  "pageCover",
  "coverPrev",
  "coverPrevLinked",
  "result",
  "namesResult",
  "poses",
  "concludes",
  "askedPart",
  "otherPart",
  "heading",
  "rarestMissing",
  "predicateMissing",
  ...unitKinds.filter((k) => k !== "sentence").map((k) => `kind_${k}` as const),
] as const;
export type FeatureName = (typeof featureNames)[number];
export type Features = Record<FeatureName, number>;

/** Entity types that satisfy each measurable answer type. */
const TYPE_ENTITIES: Partial<Record<AnswerType, readonly EntityType[]>> = {
  date: ["DATE", "TIME"],
  // "What time does the exam start" wants a clock time: the exam's date alone leaves it unsaid.
  time: ["TIME"],
  duration: ["DURATION", "DATE", "TIME", "CARDINAL"],
  percent: ["PERCENT"],
  money: ["MONEY"],
  count: ["CARDINAL"],
  // "how much water", "how much x": a quantity of anything, not only a share or a sum.
  amount: ["PERCENT", "MONEY", "CARDINAL"],
  email: ["EMAIL"],
  phone: ["PHONE"],
  url: ["URL"],
};

/** One passage as the answerer reads it. */
export interface PassageReading {
  chunkId: string;
  /** Position in retrieval order (0 = best). */
  rank: number;
  annotated: Annotated;
  units: Unit[];
  /** Where the passage's title line ends, when the passage holds the document's first line (first page, offset 0); else 0. */
  titleLineEnd: number;
  /** Scope words: the document's title line and running headers, and title words every document at hand shares (a course's name says nothing about the answer). */
  titleLemmas: ReadonlySet<string>;
  /**
   * Section titles over the passage's text (`from` its offset; -1 for one above the passage, on its page): what the lines under each are about (`titles`: the title's text, and an enclosing item's).
   * `posedTo`: where a numbered item's title and statement end in the passage's text ("Problem 2 — Home loan" and its "Given: …" line; units.ts `sectionTitleEnd`), -1 for another title.
   */
  sections: ReadonlyArray<{ from: number; lemmas: ReadonlySet<string>; titles: string; posedTo: number }>;
}

/** Short forms the passages at hand define, each with its long form's content lemmas ("PCA" → principal, component, analysis). */
export type ShortForms = ReadonlyMap<string, readonly string[]>;

export function shortFormsIn(readings: readonly PassageReading[]): ShortForms {
  const out = new Map<string, string[]>();
  for (const r of readings) for (const [short, long] of abbreviationsIn(r.annotated.text)) if (!out.has(short)) out.set(short, contentLemmas(long));
  return out;
}

/** The symbols the passages at hand define ("the hydraulic conductivity K"), the first definition of each kept. */
export function symbolsDefinedIn(readings: readonly PassageReading[]): Symbols {
  const out = new Map<string, readonly string[]>();
  for (const r of readings) for (const [symbol, name] of symbolsIn(r.annotated)) if (!out.has(symbol)) out.set(symbol, name);
  return out;
}

/**
 * Inverse document frequency over the segments of the passages at hand (BM25's smoothed form): a
 * segment is a line, or a sentence where a line holds several. A paragraph's topic word is on
 * every sentence of it and says little about which one answers.
 */
export function segmentIdf(readings: readonly PassageReading[]): (lemma: string) => number {
  const seen = new Set<string>();
  const df = new Map<string, number>();
  let n = 0;
  for (const r of readings) {
    const { text, tokens, sentences } = r.annotated;
    const segments: string[][] = [];
    let current: string[] = [];
    let sentence = 0;
    let previousEnd = 0;
    for (const t of tokens) {
      let boundary = text.slice(previousEnd, t.start).includes("\n");
      while (sentence < sentences.length && sentences[sentence].end <= t.start) {
        sentence++;
        boundary = true;
      }
      if (boundary && current.length) {
        segments.push(current);
        current = [];
      }
      if (t.content) current.push(t.lemma);
      previousEnd = t.end;
    }
    segments.push(current);
    for (const lemmas of segments) {
      if (lemmas.length === 0) continue;
      const key = lemmas.join(" ");
      if (seen.has(key)) continue; // overlapping chunks repeat lines
      seen.add(key);
      n++;
      for (const l of new Set(lemmas)) df.set(l, (df.get(l) ?? 0) + 1);
    }
  }
  return (lemma) => {
    const d = df.get(lemma) ?? 0;
    return Math.log(1 + (n - d + 0.5) / (d + 0.5));
  };
}

/** A number right after a noun names one item ("Project 3", "Room 204"), it counts nothing ("5 projects"). */
const namesAnItem = (e: EntitySpan, tokens: readonly TextToken[]) => e.type === "CARDINAL" && ["NOUN", "PROPN"].includes(tokens[e.from - 1]?.pos ?? "");


const tokensIn = (tokens: readonly TextToken[], start: number, end: number) => tokens.filter((t) => t.start >= start && t.end <= end);

/** The focus of a part, weighted: IDF over the passages at hand, nouns and names counted in full, other words at half. */
export interface WeightedFocus {
  lemma: string;
  surface: string;
  weight: number;
  noun: boolean;
  frame?: boolean;
  related: ReadonlySet<string>;
}

/** WordNet's related words that carry meaning: a stopword among them ("be", "get") would match everywhere. */
const usefulRelated = new Map<string, ReadonlySet<string>>();
function relatedContentWords(lemma: string): ReadonlySet<string> {
  let set = usefulRelated.get(lemma);
  if (!set) {
    set = new Set([...relatedWords(lemma)].filter((w) => annotate(w).tokens[0]?.stop === false));
    if (usefulRelated.size > 20_000) usefulRelated.clear();
    usefulRelated.set(lemma, set);
  }
  return set;
}

/**
 * The lemma of a token that is the focus word itself: same lemma, or the same word as written
 * (the lemmatiser may read one word two ways: "composting" as a verb in a question, as a name
 * at the start of a sentence).
 */
function exactMatch(words: readonly TextToken[], f: WeightedFocus): string | undefined {
  return words.find((t) => t.lemma === f.lemma || t.text.toLowerCase() === f.surface)?.lemma;
}

/** Related in one step either way (the unit word's related words hold the focus lemma, or it is a closed compound naming a kind of the focus noun: "textbook" for "book"), or in two: both share a related word ("teach" → "instruct" ← "instructor"). */
function relation(f: WeightedFocus, lemma: string, nouns: ReadonlySet<string>): 1 | 2 | 0 {
  if (f.related.has(lemma)) return 1;
  // A kind of what was asked, noun to noun: "textbook" answers for a book ("you can book a meeting" does not), but "books" says nothing of a textbook.
  if (f.noun && nouns.has(lemma) && isCompoundKindOf(lemma, f.lemma)) return 1;
  const theirs = relatedContentWords(lemma);
  if (theirs.has(f.lemma)) return 1;
  for (const r of theirs) if (f.related.has(r)) return 2;
  return 0;
}

/** Tokens (words, spaces and marks) between a count and the noun it counts: "42 lectures", "5-6 homework assignments", "teams of 3-4 people". */
const NEAR_VALUE = 4;

/** Words shorter than this are left as typed: one edit away, a short word has too many neighbours ("tot" → "not", "to", "top"). */
const MIN_TYPO_LENGTH = 5;

/** The content lemmas of the passages at hand: the words a misspelled focus word may stand for. */
export function vocabularyOf(readings: readonly PassageReading[]): ReadonlySet<string> {
  return new Set(readings.flatMap((r) => r.annotated.tokens.filter((t) => t.content).map((t) => t.lemma)));
}

/**
 * A focus word the passages at hand never use and WordNet does not know ("leage", "Setnata") read
 * as the one word of the passages a typo away (one edit, a swap of neighbours counting as one;
 * two for words of eight letters or more), and left as typed when none or several are, or when
 * the nearest only adds or drops an ending.
 */
export function spelledAsIn(lemma: string, vocabulary: ReadonlySet<string>): string {
  if (lemma.length < MIN_TYPO_LENGTH || vocabulary.has(lemma) || !/^\p{L}+$/u.test(lemma) || isKnownWord(lemma)) return lemma;
  const max = lemma.length >= 8 ? 2 : 1;
  let best: string | null = null;
  let bestSteps = max + 1;
  let tied = false;
  for (const word of vocabulary) {
    // A word that only adds or drops an ending ("optimizer" / "optimize") is another word, not a typo.
    if (Math.abs(word.length - lemma.length) > max || word.startsWith(lemma) || lemma.startsWith(word)) continue;
    const { steps } = editDistance(lemma, word);
    if (steps < bestSteps) [best, bestSteps, tied] = [word, steps, false];
    else if (steps === bestSteps) tied = true;
  }
  return best && !tied ? best : lemma;
}

/** A clipping is at least this long ("chem", "stats"), and leaves off at least two letters of its word. */
const MIN_CLIPPING = 4;
const MIN_CLIPPED = 2;
/** More words than this under one clipping and it names none of them. */
const MAX_CLIPPED_WORDS = 4;

/**
 * A focus word the passages never use and WordNet does not know, which begins words of the
 * passages that WordNet does know: a clipping ("chem" for chemistry, "stats" for statistics,
 * "psych"), which English forms by cutting a word's end. Those words, when few.
 */
export function clippedWordsIn(lemma: string, vocabulary: ReadonlySet<string>): string[] {
  if (lemma.length < MIN_CLIPPING || vocabulary.has(lemma) || !/^\p{L}+$/u.test(lemma) || isKnownWord(lemma)) return [];
  const words = [...vocabulary].filter((w) => w.length >= lemma.length + MIN_CLIPPED && w.startsWith(lemma) && isKnownWord(w));
  return words.length <= MAX_CLIPPED_WORDS ? words : [];
}

/** Letters that English vowel-dropping shorthand leaves out ("mgmt", "hrs", "bldg"). */
const VOWELS = /[aeiou]/;
/** Shorter ones ("st", "pt") stand for too many words. */
const MIN_CONTRACTION = 3;

/**
 * A focus word of consonants only that the passages never use and WordNet does not know: a
 * contraction typed by dropping vowels (and some letters between), as "mgmt" for management,
 * "hrs" for hours or "bldg" for building. The known words of the passages that begin with its
 * first letter and hold its letters in order; when few.
 */
export function contractedWordsIn(typed: string, vocabulary: ReadonlySet<string>): string[] {
  if (typed.length < MIN_CONTRACTION || VOWELS.test(typed) || vocabulary.has(typed) || !/^[a-z]+$/.test(typed) || isKnownWord(typed)) return [];
  // A final "s" marks the plural ("hrs", "wks"); the passages' lemmas are singular.
  const letters = typed.endsWith("s") ? typed.slice(0, -1) : typed;
  const holdsInOrder = (word: string) => {
    let k = 0;
    for (const c of word) if (c === letters[k]) k++;
    return k === letters.length;
  };
  const words = [...vocabulary].filter((w) => w[0] === letters[0] && w.length > letters.length && holdsInOrder(w) && isKnownWord(w));
  return words.length <= MAX_CLIPPED_WORDS ? words : [];
}

export function weightFocus(part: RequestedPart, idf: (lemma: string) => number, vocabulary: ReadonlySet<string> = new Set()): WeightedFocus[] {
  return part.focus.map((typed) => {
    const lemma = spelledAsIn(typed.lemma, vocabulary);
    const surface = lemma === typed.lemma ? typed.surface : lemma;
    // As typed: the lemmatizer cuts a contraction's plural "s" as an ending ("pts" → "pt").
    const clipped = [...clippedWordsIn(lemma, vocabulary), ...(vocabulary.has(lemma) ? [] : contractedWordsIn(surface.toLowerCase(), vocabulary))];
    const related = clipped.length ? new Set([...relatedContentWords(lemma), ...clipped]) : relatedContentWords(lemma);
    return { lemma, surface, noun: typed.noun, frame: typed.frame, weight: Math.max(0.1, idf(lemma)) * (typed.noun ? 1 : 0.5), related };
  });
}

/** What the features of a unit are computed from. */
export interface UnitInput {
  part: RequestedPart;
  focus: readonly WeightedFocus[];
  /** IDF-weighted share of the focus found anywhere in the passages at hand: the same for every unit of a part, it tells the calibration whether the notes speak of the question at all. */
  passageCover: number;
  /** The same share over the unit's own passage: which of the passages at hand speaks of the question. */
  pageCover: number;
  /** Lemmas of the whole question: words an answer repeats from it are not new information. */
  questionLemmas: ReadonlySet<string>;
  reading: PassageReading;
  unit: Unit;
  /** Abbreviations defined in the passages at hand: a short form matches its long form's words, and the long form its short form. */
  shortForms?: ShortForms;
  /** Symbols the passages at hand define: a unit working one out ("K = … = 0.05 cm/s") states the quantity it names. */
  symbols?: Symbols;
}

/** Length of the shortest window of positions (sorted) holding `distinct` different keys. */
function shortestCover(positions: ReadonlyArray<{ at: number; key: string }>, distinct: number): number {
  const count = new Map<string, number>();
  let best = Infinity;
  let lo = 0;
  for (const p of positions) {
    count.set(p.key, (count.get(p.key) ?? 0) + 1);
    while (count.size === distinct) {
      best = Math.min(best, p.at - positions[lo].at + 1);
      const k = positions[lo++].key;
      const n = count.get(k)! - 1;
      if (n) count.set(k, n);
      else count.delete(k);
    }
  }
  return best;
}

/** Dot leaders ("4.2 Side channels . . . . . 36"): a contents entry points to the answer's page, it never holds the answer. */
const DOT_LEADERS = /(?:\.\s?){5,}/;
export const isTableOfContents = (quote: string) => DOT_LEADERS.test(quote);

/** A line opening with a citation key ("[BS97] Eli Biham and …", "[Bod] M. Bodewes. …", "[12] A. Author. …"): a reference-list entry names a work, it never answers a question. */
const REFERENCE_KEY = /^\[(?:[\p{L}+]{1,8}\d{2}[a-z]?|\p{Lu}[\p{L}+]{1,7}|\d{1,3})\]\s+\p{Lu}/u;
export function isReferenceEntry(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf("\n", at - 1) + 1;
  // An entry may wrap: its paragraph (up to the blank line before it) opens with the key.
  const blank = text.lastIndexOf("\n\n", at - 1);
  const paragraphStart = blank === -1 ? 0 : blank + 2;
  if ([lineStart, paragraphStart].some((start) => REFERENCE_KEY.test(text.slice(start, start + 40).trimStart()))) return true;
  return (lineStart === 0 || paragraphStart === 0) && opensInReferenceList(text);
}

/** A passage may open partway through an entry ("… pages 31–47. Springer, 2014."): its first paragraph is the list's when the paragraphs after it are entries. Once per passage: every unit of its first paragraph asks. */
const referenceListOpenings = new Map<string, boolean>();
function opensInReferenceList(text: string): boolean {
  let opens = referenceListOpenings.get(text);
  if (opens === undefined) {
    const rest = text.split(/\n\s*\n/).slice(1).filter((l) => /\S/.test(l));
    opens = rest.length > 0 && rest.filter((l) => REFERENCE_KEY.test(l.trimStart())).length * 2 >= rest.length;
    if (referenceListOpenings.size > 4_000) referenceListOpenings.clear();
    referenceListOpenings.set(text, opens);
  }
  return opens;
}

/** A number word of the unit that is this number ("three days" states what "3 days" asks). */
const spellsNumber = (own: readonly TextToken[], digits: string) => own.some((t) => t.pos === "NUM" && NUMBER_WORDS.get(t.text.toLowerCase()) === digits);

/** The words a focus term may match a passage token by: its lemma or its own spelling, as a unit's features match ("Bore — the diameter …" is lemmatised "bear"). */
const spellings = (t: TextToken) => {
  const surface = t.text.toLowerCase();
  return surface === t.lemma ? [t.lemma] : [t.lemma, surface];
};

/** A passage's content words (lemmas and spellings), made once per annotation: every part asks of all passages at hand and of each one. */
const passageLemmas = new WeakMap<Annotated, ReadonlySet<string>>();
function contentLemmaSet(reading: PassageReading): ReadonlySet<string> {
  let set = passageLemmas.get(reading.annotated);
  if (!set) passageLemmas.set(reading.annotated, (set = new Set(reading.annotated.tokens.filter((t) => t.content).flatMap(spellings))));
  return set;
}

/** IDF-weighted share of a part's focus that occurs (exactly or as a related word) somewhere in the passages at hand. */
export function focusFoundIn(readings: readonly PassageReading[], focus: readonly WeightedFocus[]): number {
  const used = usedIn(readings);
  const total = focus.reduce((s, f) => s + f.weight, 0) || 1;
  return focus.filter(used).reduce((s, f) => s + f.weight, 0) / total;
}

/** The focus words none of the readings uses, as written or as a related word. */
export function focusAbsentFrom(readings: readonly PassageReading[], focus: readonly WeightedFocus[]): WeightedFocus[] {
  const used = usedIn(readings);
  return focus.filter((f) => !used(f));
}

function usedIn(readings: readonly PassageReading[]): (f: WeightedFocus) => boolean {
  const sets = readings.map(contentLemmaSet);
  const has = (lemma: string) => sets.some((s) => s.has(lemma));
  return (f) => has(f.lemma) || [...f.related].some(has);
}

/** The longest opening adverbial skipped before a definition's subject, in words with its comma. */
const OPENER_WORDS = 6;

/** After "is": a noun phrase ("is an alternative to …", "is gradient descent on …") defines; a predicate ("is unlikely to …", "is used") describes. "is called/defined/known as" is handled by the caller. */
function namesAClass(words: readonly TextToken[], i: number): boolean {
  let j = i;
  while (words[j]?.pos === "ADV") j++;
  const first = words[j];
  if (!first) return false;
  if (["DET", "NOUN", "PROPN", "NUM"].includes(first.pos)) return true;
  return first.pos === "ADJ" && ["NOUN", "PROPN", "ADJ"].includes(words[j + 1]?.pos ?? "");
}

/**
 * The sentence just before a unit, in the same paragraph (no blank line between), or null: an
 * answer often follows the sentence that restates the question ("… left to reach Acre. But a
 * storm dispersed the fleet.").
 */
function previousSentence(reading: PassageReading, unit: Unit): { start: number; end: number } | null {
  const { sentences, text } = reading.annotated;
  let prev: { start: number; end: number } | null = null;
  for (const s of sentences) {
    if (s.end > unit.start) break;
    if (text.slice(s.start, s.end).trim()) prev = s;
  }
  // A unit opening a line follows the line above it, though the tagger read both lines as one sentence ("The kiln log opens Monday" over "Closes Friday").
  const lineStart = text.lastIndexOf("\n", unit.start - 1) + 1;
  if (lineStart === unit.start && lineStart > 0 && (!prev || prev.end < lineStart - 1)) {
    const above = { start: text.lastIndexOf("\n", lineStart - 2) + 1, end: lineStart - 1 };
    if (text.slice(above.start, above.end).trim()) prev = above;
  }
  if (!prev || /\n\s*\n/.test(text.slice(prev.end, unit.start))) return null;
  return prev;
}

/** How far back a worked example's setup may stand from its result: the givens, then a step of working. */
const SETUP_SENTENCES = 3;

/** The sentences just before a unit in its passage, blank lines or not: a worked example's result is often set apart from its setup. */
function setupBefore(reading: PassageReading, unit: Unit): Array<{ start: number; end: number }> {
  const { sentences, text } = reading.annotated;
  return sentences.filter((s) => s.end <= unit.start && text.slice(s.start, s.end).trim()).slice(-SETUP_SENTENCES);
}

const isPlaceNoun = (t: TextToken) => (t.pos === "NOUN" || t.pos === "PROPN") && isPlaceWord(t.lemma);

/**
 * A place named: a name WordNet files as a location ("Lisbon"), or a noun for a place beside its
 * name or number ("Kestrel Building", "Room 2.17"). A bare name is a person's as often as a place's.
 */
function namesPlace(ownContent: readonly TextToken[], isNewName: (t: TextToken) => boolean, questionLemmas: ReadonlySet<string>): boolean {
  return ownContent.some(
    (t, k) =>
      (isNewName(t) && classesOf(t.lemma).has("location")) ||
      (isPlaceNoun(t) && !questionLemmas.has(t.lemma) && ([ownContent[k - 1], ownContent[k + 1]].some((n) => n && (isNewName(n) || n.pos === "NUM")) || namedInTitleCase(ownContent, k))),
  );
}

/** A noun capitalised after a capitalised word: part of a proper name ("Physics Building", "Main Examination Hall"). */
const namedInTitleCase = (tokens: readonly TextToken[], k: number) => k > 0 && /^\p{Lu}\p{Ll}/u.test(tokens[k].text) && /^\p{Lu}/u.test(tokens[k - 1].text);

/** A preposition of place before a noun the question did not say ("in the kitchen bins"): a place, named or not. */
function saysWhere(own: readonly TextToken[], questionLemmas: ReadonlySet<string>, undated: (t: TextToken) => boolean): boolean {
  return own.some((t, i) => {
    if (t.pos !== "ADP" || !PLACE_PREPOSITIONS.has(t.text.toLowerCase())) return false;
    const noun = own.slice(i + 1, i + 1 + NEAR_VALUE).find((n) => n.pos === "NOUN" || n.pos === "PROPN");
    return !!noun && noun.content && !questionLemmas.has(noun.lemma) && undated(noun) && !isTimeNoun(noun.lemma);
  });
}

/** A value worked out: a number right after "=" or "≈" ("so x* = 25", "≈ 1.89 m"). */
const WORKED_VALUE = /[=≈]\s*\(?[−–-]?[$€£]?\s*(\d[\d,]*(?:\.\d+)?)/gu;

/** A part of an exercise's task: "(b) Find the source current." or "b. Determine the exit pressure." sets the question a worked solution answers below it, and states nothing. */
const PART_MARKER = /^\s*(?:\(?(?:[a-z]|[ivx]{1,4})\)|[a-h]\.(?=\s))\s*/i;
function isTaskPrompt(quote: string, own: readonly TextToken[]): boolean {
  const marker = PART_MARKER.exec(quote);
  if (!marker || /[=≈]/.test(quote)) return false;
  const verb = own.find((t) => t.start >= own[0].start + marker[0].length && t.pos !== "SPACE");
  return !!verb && verb.pos === "VERB" && verb.text.toLowerCase() === verb.lemma;
}

/** A part's letter opening a line ("(b) Equilibrant", "c) P = MC"); parts are lettered a to h, as questions name them (analyze.ts). */
const PART_OPENING = /(?:^|\n)[^\S\n]*\(?([a-h])\)[^\S\n]/g;
const PART_LETTERS = /^[a-h]$/;

/** The letter of the part of a numbered item a unit is in: the last part opening a line since the item's title (the unit's own opening included), else the part heading its section is titled by. */
function partAt(reading: PassageReading, unit: Unit): string | undefined {
  const item = reading.sections.findLast((x) => x.from < unit.start && itemNounOf(x.titles.split("\n").at(-1) ?? "") !== null);
  const text = reading.annotated.text.slice(Math.max(0, item?.from ?? 0), unit.start + 4);
  const opened = [...text.matchAll(PART_OPENING)].at(-1)?.[1];
  if (opened) return opened.toLowerCase();
  const letter = partLetterOf(reading.sections.findLast((x) => x.from < unit.start)?.titles.split("\n").at(-1) ?? "");
  return letter && PART_LETTERS.test(letter) ? letter : undefined;
}

/** Openers and labels that mark a working's conclusion: "therefore" and "answer" with their WordNet synonyms ("hence", "thus", "so"; "result", "solution"), and "∴". */
let conclusionWords: { connectives: ReadonlySet<string>; labels: ReadonlySet<string> } | undefined;
const LABEL_WORDS = 3;
/** Whether a unit states a working's conclusion: it opens with "∴" or a concluding connective ("Hence R = 361 N"), or with a label naming the outcome ("Final answer: …"). */
function concludes(words: readonly TextToken[]): boolean {
  conclusionWords ??= {
    connectives: new Set([CONCLUSION_SEEDS.connective, ...relatedWords(CONCLUSION_SEEDS.connective)]),
    labels: new Set([CONCLUSION_SEEDS.label, ...relatedWords(CONCLUSION_SEEDS.label)]),
  };
  const opening = words.filter((t) => !/^[\p{Co}•▪◦●‣∙·*–-]+$/u.test(t.text));
  const first = opening[0];
  if (!first) return false;
  if (first.text === "∴" || conclusionWords.connectives.has(first.text.toLowerCase())) return true;
  const colon = opening.findIndex((t, i) => i <= LABEL_WORDS && t.text === ":");
  return colon > 0 && opening.slice(0, colon).some((t) => conclusionWords!.labels.has(t.lemma));
}

/** The words an equation sign closes on, back to the clause's start ("Result: z = 2.875" → "z"; "p-value = 0.004" after a comma → "p-value"). */
const CLAUSE_BREAKS = new Set([",", ";", ":", ".", "=", "≈"]);
const MAX_LEFT_WORDS = 6;
function leftOfEquals(words: readonly TextToken[], at: number, text: string): TextToken[] {
  const left: TextToken[] = [];
  for (let j = at - 1; j >= 0 && at - j <= MAX_LEFT_WORDS && !CLAUSE_BREAKS.has(words[j].text) && !text.slice(words[j].end, words[j + 1].start).includes("\n"); j--) left.push(words[j]);
  return left;
}

/** Whether a unit works out a number the question did not give: a setup restating the givens works out none. */
const worksOutValue = (quote: string, questionLemmas: ReadonlySet<string>) => [...quote.matchAll(WORKED_VALUE)].some((m) => !questionLemmas.has(m[1].replace(/,/g, "")));

/** A word of the document's scope (title, title line, running headers, or the title words of every document at hand). */
const namesScope = (reading: PassageReading, f: { lemma: string; surface: string }) => reading.titleLemmas.has(f.lemma) || reading.titleLemmas.has(f.surface);

/** A scope word that is this code, or this code after its department's letters ("sta141b" for "141b"). */
const namesCode = (scope: ReadonlySet<string>, code: string) => scope.has(code) || [...scope].some((w) => w.length > code.length && w.endsWith(code) && /^\p{L}+$/u.test(w.slice(0, -code.length)));

/** The words of a part that name the document's own course by its code ("CS 430", "141B" in their syllabi): they say which course, not what is asked. */
export function ownCodeWords(part: RequestedPart, scope: ReadonlySet<string>, focus: ReadonlyArray<{ lemma: string }> = part.focus): ReadonlySet<string> {
  const required = requiredIn(part, scope);
  return new Set([
    ...part.required.filter((r) => !required.includes(r)).flatMap((r) => [r.noun, r.id, r.noun + r.id]),
    // A course number the scope names, with or without its department ("141B" or "430" in the syllabus of STA 141B or CS 430), names the course.
    ...focus.filter((f) => /\d/.test(f.lemma) && namesCode(scope, f.lemma)).map((f) => f.lemma),
  ]);
}

/**
 * The identifiers a unit of this passage must state itself: one the document's scope names as a
 * code ("CS 430" or "cs430" in CS 430's syllabus: the noun and its id side by side) is met by the
 * whole document; the same two words apart ("week 2 … part 1") are no code.
 */
export function requiredIn(part: RequestedPart, scope: ReadonlySet<string>): RequestedPart["required"] {
  const words = [...scope];
  const names = (r: RequestedPart["required"][number]) => scope.has(r.noun + r.id) || words.some((w, i) => w === r.noun && words[i + 1] === r.id);
  return part.required.filter((r) => !names(r));
}

export function unitFeatures({ part, focus: allFocus, passageCover, pageCover, questionLemmas, reading, unit, shortForms = new Map(), symbols = new Map() }: UnitInput): Features {
  const { tokens, entities, text } = reading.annotated;
  const required = requiredIn(part, reading.titleLemmas);
  const isScope = (f: WeightedFocus) => namesScope(reading, f) && !required.some((r) => r.noun === f.lemma || r.id === f.lemma);
  // The document's own code in the question ("for CS 430" in CS 430's notes) neither counts for a unit nor against it: the title line holds it, the answer rarely does.
  const ownCode = ownCodeWords(part, reading.titleLemmas, allFocus);
  const answerFocus = allFocus.filter((f) => !ownCode.has(f.lemma));
  const focus = answerFocus.length ? answerFocus : allFocus;
  const own = tokensIn(tokens, unit.start, unit.end);
  const ownContent = own.filter((t) => t.content);
  const lemmas = new Set(ownContent.map((t) => t.lemma));
  const contextTokens = unit.context.flatMap((c) => tokensIn(tokens, c.start, c.end)).filter((t) => t.content);
  const nounLemmas = new Set([...ownContent, ...contextTokens].filter((t) => t.pos === "NOUN" || t.pos === "PROPN").map((t) => t.lemma));
  const contextLemmas = new Set(contextTokens.map((t) => t.lemma));
  const total = focus.reduce((s, f) => s + f.weight, 0) || 1;
  let exact = 0;
  let related = 0;
  let related2 = 0;
  let inContext = 0;
  let inSection = 0;
  // The title of the section the unit is in, said before it (a unit that is the title is covered by its own words).
  // A section numbered as another item than the one asked about ("Worked Example 4.2" when 4.3 is asked) says nothing of it.
  const over = reading.sections.findLast((x) => x.from < unit.start);
  const section = over && !contradictsRequiredId(required, over.titles) ? over.lemmas : new Set<string>();
  let nouns = 0;
  const nounTotal = focus.filter((f) => f.noun).length;
  const matchedLemmas = new Set<string>();
  // "HW" in the unit stands for the long form's words; a focus "svm" is met by the long form's words in full.
  const spelledOut = new Map<string, string>();
  for (const t of own) for (const l of shortForms.get(t.text) ?? []) spelledOut.set(l, t.lemma);
  const ownWords = own.filter((t) => t.pos !== "SPACE");
  ownWords.forEach((t, i) => {
    if (ownWords[i + 1]?.text === "=" || ownWords[i + 1]?.text === "≈") for (const l of symbols.get(t.text) ?? []) spelledOut.set(l, t.lemma);
  });
  const shortFormOf = new Map([...shortForms].map(([short, long]) => [short.toLowerCase(), long]));
  // The kind of answer asked for, outside the words the question already said.
  const wanted = TYPE_ENTITIES[part.answerType];
  const ownEntities = entities.filter((e) => e.start >= unit.start && e.end <= unit.end && !questionLemmas.has(e.text.toLowerCase()));
  let typeMatch = 0;
  // A count counts something asked about: "42 lectures", "teams of 3-4 people"; "5 Projects" is no number of homeworks.
  const countsFocus = (e: EntitySpan) =>
    !focus.some((f) => f.noun) ||
    [...tokens.slice(Math.max(0, e.from - NEAR_VALUE), e.from), ...tokens.slice(e.to, e.to + NEAR_VALUE)].some(
      (t) => t.content && t.start >= unit.start && t.end <= unit.end && !text.slice(Math.min(t.end, e.start), Math.max(t.start, e.end)).includes("\n") && focus.some((f) => f.noun && (t.lemma === f.lemma || f.related.has(t.lemma))),
    );
  const valueTypes = new Set(ownEntities.filter((e) => wanted?.includes(e.type) && !(part.answerType === "count" && (namesAnItem(e, tokens) || !countsFocus(e)))).map((e) => e.type));
  if (wanted) typeMatch = valueTypes.size > 0 || (part.answerType === "percent" && /\d\s*%/.test(text.slice(unit.start, unit.end))) ? 1 : 0;
  else if (part.answerType === "person" || part.answerType === "place") {
    // A weekday or month is a date, not a name.
    const dated = entities.filter((e) => e.type === "DATE" || e.type === "TIME");
    const undated = (t: TextToken) => !dated.some((e) => e.start <= t.start && t.end <= e.end);
    const isNewName = (t: TextToken) => t.pos === "PROPN" && !questionLemmas.has(t.lemma) && isName(t) && undated(t);
    typeMatch = (part.answerType === "person" ? ownContent.some(isNewName) : namesPlace(ownContent, isNewName, questionLemmas) || saysWhere(own, questionLemmas, undated)) ? 1 : 0;
  }
  const typeMissing = (wanted || part.answerType === "person" || part.answerType === "place") && !typeMatch ? 1 : 0;
  // A focus word that names the kind of answer ("the instructor's email address", "the last day to drop") is said by a value of that kind.
  // A period named in a question asking when ("by when …, at the end of the semester") frames the date asked for: a date states it.
  const namesType = (f: WeightedFocus) =>
    typeMatch === 1 &&
    (TYPE_NOUNS.get(f.lemma) === part.answerType ||
      !!TYPE_ENTITIES[TYPE_NOUNS.get(f.lemma) ?? "general"]?.some((t) => valueTypes.has(t)) ||
      ((part.answerType === "date" || part.answerType === "time") && f.frame));
  // An identifier the document's scope names ("Assignment 3 Notice", CS 430's syllabus) is met by every unit of it; any other the question names must be stated.
  let requiredId = ownCode.size && !required.length ? 1 : 0;
  if (required.length) {
    // The section's title states the id for every line under it ("Table 2.4" over its rows, "Example 3.4" over its steps).
    const span = [...[unit, ...unit.context].map((s) => text.slice(s.start, s.end)), over?.titles ?? ""].join(" ").toLowerCase();
    const row = text.slice(unit.start, unit.end).toLowerCase();
    const header = unit.context.map((s) => text.slice(s.start, s.end).toLowerCase()).join(" ");
    requiredId = required.some(
      (r) =>
        statesId(span, r) ||
        // A code ("3B" of "Room 3B") names its thing alone; a bare number ("4" of "Lab 4") does not.
        (isCode(r.id) && new RegExp(`\\b${escapeRegExp(r.id)}\\b`).test(span)) ||
        // A table row whose first cell is the id, under a header naming the noun ("Week | Topic" over "9 | Storage").
        // The header may be the section's title, above the passage ("Week Dates Topic" over rows a chunk boundary cut from it).
        (unit.kind === "table_row" && (new RegExp(`\\b${nounPattern(r.noun)}`).test(header) || section.has(r.noun)) && new RegExp(`^\\W*${escapeRegExp(r.id)}\\b`).test(row)),
    )
      ? 1
      : 0;
  }

  const rarest = focus.reduce<WeightedFocus | undefined>((a, f) => (!a || f.weight > a.weight ? f : a), undefined);
  let rarestHit = false;
  let predicateHit = false;
  // An identifier's number alone ("1" of "project 1") says nothing: "1:30" or "Page 1" does not state it, so it counts only with the identifier.
  const idNumbers = new Set(required.map((r) => r.id));
  // An identifier asked glued ("q3", "lab4") is said by the unit that names it as the notes write it ("Question 3"); only a unit that meets the identifier can.
  const statesGluedId = (f: WeightedFocus) => requiredId === 1 && required.some((r) => [r.noun, r.written].includes(f.lemma.slice(0, -r.id.length)) && f.lemma.endsWith(r.id) && statesId(text.slice(unit.start, unit.end).toLowerCase(), r));
  for (const f of focus) {
    let hit = false;
    if (idNumbers.has(f.lemma) && !requiredId) continue;
    const long = shortFormOf.get(f.surface);
    const same = exactMatch(ownContent, f) ?? (spellsNumber(own, f.lemma) ? f.lemma : undefined) ?? spelledOut.get(f.lemma) ?? (long?.length && long.every((l) => lemmas.has(l)) ? long[0] : undefined) ?? (namesType(f) ? f.lemma : undefined) ?? (statesGluedId(f) ? f.lemma : undefined);
    if (same) {
      exact += f.weight;
      matchedLemmas.add(same);
      hit = true;
    } else {
      let rel: string | undefined;
      let degree: 0 | 1 | 2 = 0;
      for (const l of lemmas) {
        const d = relation(f, l, nounLemmas);
        if (d && (!degree || d < degree)) [rel, degree] = [l, d];
        if (degree === 1) break;
      }
      if (rel) {
        if (degree === 1) related += f.weight;
        else related2 += f.weight;
        matchedLemmas.add(rel);
        hit = true;
      } else if (contextLemmas.has(f.lemma) || [...contextLemmas].some((l) => relation(f, l, nounLemmas))) {
        inContext += f.weight;
        hit = true;
      } else if (section.has(f.lemma)) {
        inSection += f.weight;
        hit = true;
      }
    }
    if (hit && f.noun) nouns++;
    if (hit && f === rarest) rarestHit = true;
    if (hit && !f.noun) predicateHit = true;
  }

  // Proximity: matched words per token of the shortest window holding each of them once.
  const positions = own.map((t, i) => (matchedLemmas.has(t.lemma) && t.content ? i : -1)).filter((i) => i >= 0);
  const distinct = new Set(positions.map((i) => own[i].lemma)).size;
  const density = distinct >= 2 ? Math.min(1, distinct / shortestCover(positions.map((i) => ({ at: i, key: own[i].lemma })), distinct)) : positions.length ? 0.5 : 0;


  // Adjacent focus pairs found adjacent (as content words) in the unit.
  const pairs = focus.slice(1).map((f, i) => `${focus[i].lemma} ${f.lemma}`);
  const ownPairs = new Set(ownContent.slice(1).map((t, i) => `${ownContent[i].lemma} ${t.lemma}`));
  const bigram = pairs.length ? pairs.filter((p) => ownPairs.has(p)).length / pairs.length : 0;


  const novel = ownContent.filter((t) => !questionLemmas.has(t.lemma) && !matchedLemmas.has(t.lemma)).length;

  // Focus the unit lacks but the sentence before it states; "linked" when the unit opens by pointing back (a connective; one opening with a pronoun or demonstrative already holds the sentence before it, units.ts).
  let coverPrev = 0;
  const prev = previousSentence(reading, unit);
  // A sentence about another identifier ("Assignment 2 is due …" when Assignment 4 was asked) lends nothing.
  if (prev && !contradictsRequiredId(required, text.slice(prev.start, prev.end))) {
    const prevLemmas = new Set(tokensIn(tokens, prev.start, prev.end).filter((t) => t.content).map((t) => t.lemma));
    for (const f of focus) {
      if (lemmas.has(f.lemma) || [...f.related].some((r) => lemmas.has(r))) continue;
      if (prevLemmas.has(f.lemma) || [...f.related].some((r) => prevLemmas.has(r))) coverPrev += f.weight;
    }
    coverPrev /= total;
  }
  const quote = text.slice(unit.start, unit.end);
  // A value worked out under sentences that state what the question restates: the result of its worked example.
  let result = 0;
  const worked = worksOutValue(quote, questionLemmas);
  if (worked) {
    const setup = new Set(setupBefore(reading, unit).flatMap((e) => tokensIn(tokens, e.start, e.end).filter((t) => t.content).map((t) => t.lemma)));
    // The example's title names its setup too ("Example 4.2 (Pump test)." above the working), however far back.
    for (const f of focus) if (!lemmas.has(f.lemma) && (setup.has(f.lemma) || section.has(f.lemma))) result += f.weight;
    result /= total;
  }
  // The quantity asked for named as what a line works out ("WACC = … = 9.14%", "so the eigenvalues are λ = 5"): a focus word just left of "=", in the same clause.
  const namesResult = worked && ownWords.some((t, i) => (t.text === "=" || t.text === "≈") && leftOfEquals(ownWords, i, text).some((w) => w.content && matchedLemmas.has(w.lemma))) ? 1 : 0;
  const opener = own.find((t) => t.pos !== "SPACE" && t.pos !== "PUNCT" && !/^[\p{Co}•▪◦●‣∙·*–-]+$/u.test(t.text));
  const linked = opener && (["PRON", "CCONJ", "SCONJ", "ADV"].includes(opener.pos) || ANAPHORS.has(opener.text.toLowerCase())) ? 1 : 0;
  const heading = isHeading(quote, own);
  const asked = required.find((r) => r.part)?.part;
  const inPart = asked ? partAt(reading, unit) : undefined;

  // "X is a …", "X (abbr.) refers to …", "X: …": the unit opens with a noun phrase holding a focus word, then a defining verb.
  let definitionForm = 0;
  if (part.answerType === "definition") {
    const words = own.filter((t) => t.pos !== "SPACE" && !/^[\p{Co}•▪◦●‣∙·*–-]+$/u.test(t.text));
    // An opening adverbial up to its comma ("As a reminder, X is …", "Formally, X is …") comes before the subject.
    const comma = words.findIndex((t, k) => k < OPENER_WORDS && t.text === ",");
    const start = comma > 0 && ["ADP", "ADV", "SCONJ"].includes(words[0].pos) ? comma + 1 : 0;
    let i = start;
    let named = false;
    let depth = 0;
    for (; i < words.length && i < start + 10; i++) {
      const t = words[i];
      if (t.text === "(") depth++;
      else if (t.text === ")") depth--;
      // A gerund opening the sentence is its subject ("Clustering refers to …"); a slash joins two names of one thing ("High bias/Underfitting: …").
      else if (depth === 0 && !["DET", "ADJ", "NOUN", "PROPN", "NUM", "X"].includes(t.pos) && !((t.pos === "PUNCT" || t.pos === "SYM") && (t.text === "-" || t.text === "/")) && !(i === start && t.pos === "VERB" && /ing$/i.test(t.text))) break;
      // A short form names its long form's words ("HW (b) is defined as …" defines the Hamming weight).
      if (focus.some((f) => exactMatch([t], f) || shortForms.get(t.text)?.includes(f.lemma))) named = true;
    }
    const verb = words[i];
    const next = words[i + 1];
    const defining = verb && DEFINING_VERBS.has(verb.lemma) && (verb.pos === "AUX" || verb.pos === "VERB") && !(verb.lemma === "be" && !namesAClass(words, i + 1) && !(next && DEFINING_VERBS.has(next.lemma)));
    if (named && defining) definitionForm = 1;
    // "X: a process that …" defines; "6.1 Clustering: K-Means Algorithm" is a heading with its subtitle.
    else if (named && verb?.text === ":" && !heading) definitionForm = 0.5;
  }
  const reasonMarker = part.answerType === "reason" && own.some((t) => REASON_MARKERS.has(t.lemma)) ? 1 : 0;

  const features: Features = {
    cover: exact / total,
    coverRelated: related / total,
    coverRelated2: related2 / total,
    coverContext: inContext / total,
    coverSection: inSection / total,
    // A focus without nouns ("who teaches …") has none to miss: the share of the focus found stands in.
    nounCover: nounTotal ? nouns / nounTotal : (exact + related + related2) / total,
    density,
    bigram,
    typeMatch,
    typeMissing,
    novelty: Math.min(1, Math.log1p(novel) / 3),
    // Share of the whole question's weight in scope words the unit holds (the title line's mark); the document's own code is neutral.
    scope: allFocus.filter((f) => isScope(f) && !ownCode.has(f.lemma) && exactMatch(ownContent, f)).reduce((s, f) => s + f.weight, 0) / (allFocus.reduce((s, f) => s + f.weight, 0) || 1),
    rank: 1 / (1 + reading.rank),
    length: Math.min(1, Math.log1p(ownContent.length) / 4),
    endsColon: /:\s*$/.test(quote) ? 1 : 0,
    question: /\?\s*$/.test(quote) || isTaskPrompt(quote, own) ? 1 : 0,
    definitionForm,
    reasonMarker,
    requiredId,
    // The question names an identifier ("Assignment 4") that neither the unit nor its context states.
    requiredMissing: part.required.length && !requiredId ? 1 : 0,
    titleLine: unit.start < reading.titleLineEnd ? 1 : 0,
    passageCover,
    pageCover,
    coverPrev,
    coverPrevLinked: coverPrev * linked,
    result,
    namesResult,
    // The unit is a numbered item's title or statement: it sets the task its working answers below.
    poses: reading.sections.some((x) => x.from <= unit.start && unit.start < x.posedTo) ? 1 : 0,
    concludes: concludes(ownWords) ? 1 : 0,
    // The part of the item the question names ("q1 pt b"): a unit in that part, or in another.
    askedPart: asked && inPart === asked ? 1 : 0,
    otherPart: asked && inPart && inPart !== asked ? 1 : 0,
    heading: heading ? 1 : 0,
    // The focus word with the most weight (the rarest; a noun counts double) found neither in the unit, its context nor as a related word.
    rarestMissing: rarest && !rarestHit ? 1 : 0,
    // A yes/no question asks whether something holds ("are kiln sessions supervised?"): a unit with none of its verbs or adjectives says neither yes nor no.
    predicateMissing: part.answerType === "yesno" && focus.some((f) => !f.noun) && !predicateHit ? 1 : 0,
    kind_line: 0,
    kind_label_value: 0,
    kind_lead_in: 0,
    kind_table_row: 0,
    kind_list_item: 0,
  };
  if (unit.kind !== "sentence") features[`kind_${unit.kind}`] = 1;
  return features;
}

/**
 * A heading: one short line without a verb, numbered like a section or in title case ("6.1
 * Clustering: K-Means Algorithm", "Instructor Information"). It names a topic; the text under it
 * says something about it.
 */
export function isHeading(quote: string, tokens: readonly TextToken[]): boolean {
  if (quote.includes("\n") || TERMINAL.test(quote)) return false;
  const words = tokens.filter((t) => /\p{L}/u.test(t.text));
  if (words.length === 0 || words.length > MAX_LABEL_WORDS) return false;
  // A section number is layout the tagger cannot misread: "3.2 Computing the Gradient" heads a section although "Computing" is a verb.
  if (SECTION_NUMBER.test(quote)) return true;
  return !words.some((t) => t.pos === "VERB" || t.pos === "AUX") && words.filter((t) => !t.stop).every((t) => /^\p{Lu}/u.test(t.text));
}


/** Whether `short` is written from `long`'s letters in order, starting with its first ("lab", "yr" of "year"). */
function shortens(short: string, long: string): boolean {
  if (short.length >= long.length || short[0] !== long[0]) return false;
  let at = 0;
  for (const c of short) {
    at = long.indexOf(c, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

/** An identifier's noun as the notes may write it: itself or a short or long form WordNet lists for it ("April 15" as "Apr 15", "Laboratory 2" as "Lab 2", "Yr 3" as "Year 3"). */
const nounPatterns = new Map<string, string>();
function nounPattern(noun: string): string {
  let pattern = nounPatterns.get(noun);
  if (pattern === undefined) {
    const forms = [noun, ...[...relatedContentWords(noun)].filter((w) => /^\p{L}+$/u.test(w) && (shortens(w, noun) || shortens(noun, w)) && Math.min(w.length, noun.length) >= 2)];
    pattern = `(?:${[...new Set(forms)].map(escapeRegExp).join("|")})`;
    if (nounPatterns.size > 10_000) nounPatterns.clear();
    nounPatterns.set(noun, pattern);
  }
  return pattern;
}

/** An id of letters and digits ("3b"): a code, unlike a bare number. */
const isCode = (id: string) => /\p{L}/u.test(id) && /\d/.test(id);

/**
 * The pattern of an identifier's noun up to its id ("Lab 4", "Labs #4", "lab-4"): the id's pattern
 * follows. The noun takes letters only ("Labs"), so "S03" reads as S with 03, never S0 with 3; a
 * one-letter noun (the S of "S03") takes no letters and no related words, or every word starting with it would be one ("bay a").
 */
const idAfter = (noun: string) => (noun.length > 1 ? `\\b${nounPattern(noun)}[a-z]*\\s*#?-?\\s*` : `\\b${escapeRegExp(noun)}\\s*#?-?\\s*`);

/** Ids as a range spanning at most this many ("Weeks 1–12", "Lectures 14–16"); a wider one is more likely two numbers of other things. */
const MAX_ID_RANGE = 60;

/**
 * Whether a text names an identifier: as itself ("Lab 4", "Labs #4"), or inside a range of its
 * noun's ids ("Weeks 3–6" names week 5, "Groups L5–L8" group L6). A range is written tight, with
 * the noun again ("Week 3 – Week 6"), or after the plural noun; "Week 3 – 10 Sep" is a week and a date.
 */
export function statesId(text: string, r: RequestedPart["required"][number]): boolean {
  const { itself, range } = idPatterns(r);
  if (itself.test(text)) return true;
  if (!range) return false;
  const id = Number(r.id);
  return [...text.matchAll(range)].some(([, written, first, before, after, again, last]) => {
    const [lo, hi] = [Number(first), Number(last)];
    const plural = /s\W*$/i.test(written) && r.noun.length > 1 && !r.noun.endsWith("s");
    return lo <= id && id <= hi && lo < hi && hi - lo <= MAX_ID_RANGE && ((!before && !after) || !!again || plural);
  });
}

/** An identifier's patterns, made once per question's id: every unit of every passage asks whether it names it. */
const idPatternCache = new Map<string, { itself: RegExp; range: RegExp | null }>();
function idPatterns({ noun, id }: RequestedPart["required"][number]): { itself: RegExp; range: RegExp | null } {
  const key = `${noun}\u0000${id}`;
  let patterns = idPatternCache.get(key);
  if (!patterns) {
    patterns = {
      itself: new RegExp(`${idAfter(noun)}${escapeRegExp(id)}\\b`, "i"),
      // Only a number has a range of ids around it.
      range: /^\d+$/.test(id) ? new RegExp(`(${idAfter(noun)})(\\d+)\\b(\\s*)(?:[–—-]|to\\b|through\\b)(\\s*)(${idAfter(noun)})?(\\d+)\\b`, "gi") : null,
    };
    if (idPatternCache.size > 10_000) idPatternCache.clear();
    idPatternCache.set(key, patterns);
  }
  return patterns;
}

/**
 * An ordinal names an identifier only where the passages number its noun ("Midterm 2"); where none
 * does, "the second midterm" asks about a midterm. A noun the passages do not number is the one
 * noun they number that it shortens ("q3", "qn 3" of "Question 3", "prob 3" of "Problem 3") or,
 * failing that, the one numbered noun that is a kind of a word it shortens ("q3" of "Problem 3": a
 * problem is a question, in WordNet); the noun as written is kept for the glued id ("q3").
 */
export function numberedIds(part: RequestedPart, readings: readonly PassageReading[]): RequestedPart {
  if (!part.required.length) return part;
  const numbered = (noun: string) => {
    const pattern = new RegExp(`${idAfter(noun)}\\d`, "i");
    return readings.some((r) => pattern.test(r.annotated.text));
  };
  // Items are numbered under a capitalised noun ("Question 3", "Weeks 3–6"), singular or plural: the stem without a final "s" counts both once, and an identifier's noun pattern reads it as a prefix.
  let itemNouns: string[] | undefined;
  const itemNoun = (written: string) => {
    itemNouns ??= [...new Set(readings.flatMap((r) => [...r.annotated.text.matchAll(/\b(\p{Lu}\p{Ll}+)\s*#?\s*\d/gu)].map((m) => m[1].toLowerCase().replace(/s$/, ""))))];
    const spelled = itemNouns.filter((n) => shortens(written, n));
    const kinds = spelled.length ? spelled : itemNouns.filter((n) => [...classesOf(n)].some((c) => c === written || shortens(written, c)));
    return kinds.length === 1 ? kinds[0] : null;
  };
  const required = part.required.flatMap((r) => {
    if (r.ordinal) return numbered(r.noun) ? [r] : [];
    const noun = numbered(r.noun) ? r.noun : itemNoun(r.noun);
    const named = noun && noun !== r.noun ? { ...r, noun, written: r.noun } : r;
    return [noun ? partOfId(named, readings) : named];
  });
  return required.length === part.required.length && required.every((r, i) => r === part.required[i]) ? part : { ...part, required };
}

/** "4b" of an item the passages number 4 but never "4b": part b of item 4. */
function partOfId(r: RequestedPart["required"][number], readings: readonly PassageReading[]): RequestedPart["required"][number] {
  const glued = /^(\d+)([a-h])$/.exec(r.id);
  if (!glued || r.part || readings.some((x) => statesId(x.annotated.text.toLowerCase(), r))) return r;
  const item = { ...r, id: glued[1] };
  return readings.some((x) => statesId(x.annotated.text.toLowerCase(), item)) ? { ...item, part: glued[2] } : r;
}

/**
 * A unit that names the part's identifier noun with other ids only ("Assignment 3" when
 * "Assignment 4" was asked) cannot answer it, however well it scores otherwise.
 */
export function contradictsRequiredId(required: RequestedPart["required"], quote: string): boolean {
  if (required.length === 0) return false;
  const lower = quote.toLowerCase();
  return required.some((r) => {
    // A letter id stands apart from its noun ("Section B"): flush against it, it ends a word ("weekly").
    const mentions = [...lower.matchAll(new RegExp(`${idAfter(r.noun)}(\\d+(?:\\.\\d+)*[a-z]?|[a-z])\\b`, "g"))].filter((m) => /\d/.test(m[1]) || /[\s#-]$/.test(m[0].slice(0, -1))).map((m) => m[1]);
    // Dotted ids nest: "Section 3.2" is in section 3, and "Example 4.2" in chapter 4.
    const same = (m: string) => m === r.id || m.startsWith(`${r.id}.`) || r.id.startsWith(`${m}.`);
    return mentions.length > 0 && !mentions.some(same) && !statesId(lower, r);
  });
}
