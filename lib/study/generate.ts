/**
 * Study cards without a model, read from the notes' own structure: the answerer's layout-aware
 * units (lib/rag/extractive/units.ts) and wink-nlp's entity types (lib/rag/text/nlp.ts).
 *
 * - definitions ("X is a …", "X: …", a heading term and its first sentence) → term/definition cards;
 * - facts with a date, time, duration, number, percentage or amount → cloze cards, the value blanked;
 * - multiple-choice distractors are values of the same type found elsewhere in the course.
 *
 * Never from a table-of-contents line, a running header or footer, or a line without content
 * words; near-duplicates are merged; at most `perPage` cards a page. Pure: same pages, same deck.
 */
import { answerUnits, displayText, type Unit } from "@/lib/rag/extractive/units";
import { answerKey } from "./answer-key";
import { annotate, contentLemmas, type Annotated, type EntitySpan, type EntityType } from "@/lib/rag/text/nlp";

export interface StudyChunk {
  chunkId: string;
  /** Offsets in the page text. */
  charStart: number;
  charEnd: number;
}

/** One page of a document's current revision, with the chunks that cut it. */
export interface StudyPage {
  documentId: string;
  documentTitle: string;
  revisionId: string;
  revisionNumber: number;
  pdfPage: number;
  pageLabel: string | null;
  text: string;
  chunks: StudyChunk[];
}

/** "question": a model-written question/answer pair (lib/study/model-cards.ts). */
export type CardKind = "definition" | "cloze" | "question";
/** A wink entity type for a cloze card; TERM / DEFINITION for the two sides of a definition. */
export type AnswerType = EntityType | "DEFINITION";

export interface DraftCard {
  kind: CardKind;
  front: string;
  back: string;
  answerType: AnswerType;
  distractors: string[];
  documentId: string;
  documentTitle: string;
  revisionId: string;
  revisionNumber: number;
  chunkId: string;
  pdfPage: number;
  pageLabel: string | null;
  /** Verbatim: page.text.slice(charStart, charEnd). */
  quote: string;
  charStart: number;
  charEnd: number;
}

export interface GenerateOptions {
  /** Cards per page at most, so a deck spreads over the material. */
  perPage?: number;
  /** Cards in all at most (earliest pages first after the per-page cap). */
  maxCards?: number;
  /** Pages of the rest of the course: read for distractors only when the deck's own pages lack them. */
  poolPages?: StudyPage[];
}

export { answerKey };
export const BLANK = "____";
const DISTRACTORS = 3;
const DEFAULT_PER_PAGE = 4;
/** Cards from sentences longer than this are hard to read as a prompt. */
const MAX_QUOTE_WORDS = 45;
/** Content-lemma overlap above which two cards are the same fact. */
const NEAR_DUPLICATE = 0.8;

/** Value types a cloze may blank, most informative first: a count is a weaker fact than a date or a share. */
const CLOZE_TYPES: EntityType[] = ["PERCENT", "MONEY", "DATE", "TIME", "DURATION", "CARDINAL", "ORDINAL"];
/** A number that only names a thing ("Figure 3", "Lab 2") is not a fact to recall. */
const NAMING_NOUNS = /\b(figure|fig|table|section|chapter|page|slide|lab|lecture|week|step|part|example|exercise|question|equation|eq|appendix|assignment|unit|module|lemma|theorem|definition|listing|algorithm)\.?\s*$/i;
/** Table-of-contents lines: dot leaders, or a title followed by a lone page number. */
const DOT_LEADERS = /(\.\s?){4,}|…{2,}|(\s\.){3,}/;
const COPULA = new Set(["is", "are", "refers", "means", "denotes"]);
const DEFINING_DET = new Set(["a", "an", "the", "to", "any", "one"]);

const words = (s: string) => s.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
/** Formulas, code and table cells read as letters and digits apart ("u i n t 8", "x ⊕ 0 = 1"): no card. */
const MATH = /[=⊕×∈→←≤≥∑∏√<>{}[\]\\|^−]|\bmod\b|\/\//u;
export function isProse(quote: string): boolean {
  if (MATH.test(quote)) return false;
  const tokens = quote.match(/[\p{L}\p{N}]+/gu) ?? [];
  const wordsOf3 = tokens.filter((t) => /^\p{L}{3,}$/u.test(t)).length;
  return wordsOf3 >= 4 && wordsOf3 >= tokens.length * 0.6;
}
/** A contents entry without dot leaders: a numbered title ending in its page number. */
const CONTENTS_ENTRY = /^\s*(\d+(\.\d+)*|[IVX]+|[A-Z])\.?\s+\S.*\s\d{1,4}\s*$/u;
/** A contents page: most of its lines end in a page number. */
export function isContentsPage(text: string): boolean {
  const lines = text.split("\n").filter((l) => /\p{L}/u.test(l));
  const entries = lines.filter((l) => CONTENTS_ENTRY.test(l) || DOT_LEADERS.test(l)).length;
  return entries >= 5 && entries >= lines.length * 0.4;
}

/**
 * Lines that repeat on many pages of a document (running headers and footers), with digits
 * folded so "Page 3 of 9" matches "Page 4 of 9".
 */
export function runningLines(pages: Pick<StudyPage, "documentId" | "text">[]): Set<string> {
  const byDoc = new Map<string, Map<string, number>>();
  const pageCount = new Map<string, number>();
  for (const p of pages) {
    const counts = byDoc.get(p.documentId) ?? new Map<string, number>();
    byDoc.set(p.documentId, counts);
    pageCount.set(p.documentId, (pageCount.get(p.documentId) ?? 0) + 1);
    for (const line of new Set(p.text.split("\n").map(foldLine).filter(Boolean))) counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  const out = new Set<string>();
  for (const [doc, counts] of byDoc) {
    const n = pageCount.get(doc)!;
    if (n < 3) continue;
    for (const [line, c] of counts) if (c >= 3 && c >= n * 0.3) out.add(`${doc}\u0000${line}`);
  }
  return out;
}
const foldLine = (line: string) => line.trim().toLowerCase().replace(/\d+/g, "#").replace(/\s+/g, " ");

interface Candidate extends DraftCard {
  /** Higher first under the per-page cap. */
  priority: number;
  /** Content lemmas of the fact, for the near-duplicate merge. */
  lemmas: Set<string>;
}

/**
 * Builds a deck page by page, so a caller can report progress (and yield) between pages; the
 * result is the same as generateCards on the same pages.
 */
export class DeckBuilder {
  private readonly perPage: number;
  private readonly running: Set<string>;
  private readonly pool = new ValuePool();
  private readonly kept: Candidate[] = [];

  constructor(
    pages: StudyPage[],
    private readonly options: GenerateOptions = {},
  ) {
    this.perPage = options.perPage ?? DEFAULT_PER_PAGE;
    this.running = runningLines([...pages, ...(options.poolPages ?? [])]);
  }

  addPage(page: StudyPage): void {
    const annotated = annotate(page.text);
    this.pool.add(annotated, page.documentId, this.running);
    const onPage = cardsOfPage(page, annotated, this.running)
      .filter((c) => !this.kept.some((k) => nearDuplicate(k, c)))
      .sort((a, b) => b.priority - a.priority || a.charStart - b.charStart);
    const chosen: Candidate[] = [];
    for (const c of onPage) {
      if (chosen.length >= this.perPage) break;
      if (!chosen.some((k) => nearDuplicate(k, c))) chosen.push(c);
    }
    this.kept.push(...chosen.sort((a, b) => a.charStart - b.charStart));
  }

  finish(): DraftCard[] {
    const { maxCards } = this.options;
    const cards = maxCards === undefined ? this.kept : this.kept.slice(0, maxCards);
    for (const card of cards) if (card.kind === "definition") this.pool.put("DEFINITION", card.back);
    const extra = [...(this.options.poolPages ?? [])];
    for (const card of cards) {
      card.distractors = this.pool.distractors(card, DISTRACTORS);
      // Too few in the deck's own pages: the rest of the course, read once and only then.
      if (card.distractors.length < DISTRACTORS && extra.length) {
        for (const p of extra.splice(0)) this.pool.add(annotate(p.text), p.documentId, this.running);
        card.distractors = this.pool.distractors(card, DISTRACTORS);
      }
    }
    return cards.map(({ priority: _p, lemmas: _l, ...card }) => card);
  }
}

/** Every card of the pages, capped per page, near-duplicates merged, distractors filled. */
export function generateCards(pages: StudyPage[], options: GenerateOptions = {}): DraftCard[] {
  const builder = new DeckBuilder(pages, options);
  for (const page of pages) builder.addPage(page);
  return builder.finish();
}

/** Two cards are the same fact when their content lemmas mostly coincide. */
type Comparable = { lemmas: Set<string>; kind: CardKind; front: string; back: string };
export function nearDuplicate(a: Comparable, b: Comparable): boolean {
  // One term, one definition card: the same term defined twice (or the same definition under two terms) is one card.
  if (a.kind === "definition" && b.kind === "definition" && (answerKey(a.back) === answerKey(b.back) || answerKey(a.front) === answerKey(b.front))) return true;
  let shared = 0;
  for (const l of a.lemmas) if (b.lemmas.has(l)) shared++;
  const union = a.lemmas.size + b.lemmas.size - shared;
  return union > 0 && shared / union >= NEAR_DUPLICATE;
}

function cardsOfPage(page: StudyPage, annotated: Annotated, running: Set<string>): Candidate[] {
  const { text } = annotated;
  const out: Candidate[] = [];
  if (isContentsPage(text)) return out;
  const usable = (u: { start: number; end: number }) => {
    const quote = text.slice(u.start, u.end);
    if (DOT_LEADERS.test(quote) || CONTENTS_ENTRY.test(quote) || words(quote) > MAX_QUOTE_WORDS || !isProse(quote)) return false;
    return !quote.split("\n").some((l) => running.has(`${page.documentId}\u0000${foldLine(l)}`));
  };
  // A line cut off before its sentence ends ("… on the basis of") is a fragment: prose units must end their sentence.
  const whole = (u: Unit) => u.kind === "label_value" || u.kind === "list_item" || /[.?!]["”’)]*$/u.test(text.slice(u.start, u.end));
  const units = answerUnits(annotated).filter((u) => usable(u) && whole(u));
  const headingsUsed = new Set<number>();
  for (const unit of units) {
    const chunk = page.chunks.find((c) => c.charStart <= unit.start && c.charEnd >= unit.end);
    if (!chunk) continue;
    const make = (kind: CardKind, front: string, back: string, answerType: AnswerType, priority: number, span = unit): Candidate => ({
      kind,
      front,
      back,
      answerType,
      distractors: [],
      documentId: page.documentId,
      documentTitle: page.documentTitle,
      revisionId: page.revisionId,
      revisionNumber: page.revisionNumber,
      chunkId: chunk.chunkId,
      pdfPage: page.pdfPage,
      pageLabel: page.pageLabel,
      quote: text.slice(span.start, span.end),
      charStart: span.start,
      charEnd: span.end,
      priority,
      // What the card asks and answers, so two cards that teach the same thing compare equal however they were found.
      lemmas: new Set(contentLemmas(`${front} ${back}`)),
    });
    const definition = definitionOf(annotated, unit);
    if (definition) {
      out.push(make("definition", definition.term, definition.body, "DEFINITION", 3));
      continue;
    }
    const heading = unit.context.find((c) => c.end <= unit.start);
    if (heading && unit.kind === "sentence" && !headingsUsed.has(heading.start)) {
      headingsUsed.add(heading.start);
      const term = headingTerm(annotated, heading);
      if (term && namesHeadingEarly(annotated, heading, unit)) {
        out.push(make("definition", term, displayText(text.slice(unit.start, unit.end)), "DEFINITION", 2));
        continue;
      }
    }
    const cloze = clozeOf(annotated, unit);
    if (cloze) out.push(make("cloze", cloze.front, cloze.answer, cloze.type, cloze.priority));
  }
  return out;
}

const contentIn = (a: Annotated, start: number, end: number) => a.tokens.filter((t) => t.content && t.start >= start && t.end <= end);
const lemmaSet = (a: Annotated, start: number, end: number) => new Set(contentIn(a, start, end).map((t) => t.lemma));
/** The sentence under a heading is about the heading's term when the term comes among its first words ("Crop rotation moves …"), not only later in passing. */
const namesHeadingEarly = (a: Annotated, heading: { start: number; end: number }, sentence: { start: number; end: number }) => {
  const early = new Set(contentIn(a, sentence.start, sentence.end).slice(0, 4).map((t) => t.lemma));
  return [...lemmaSet(a, heading.start, heading.end)].some((l) => early.has(l));
};
/** A term: at most six words, at least one a noun, no sentence punctuation, starting and ending on a word. */
function isTerm(a: Annotated, start: number, end: number): boolean {
  const toks = a.tokens.filter((t) => t.start >= start && t.end <= end && t.pos !== "SPACE");
  if (toks.length === 0 || words(a.text.slice(start, end)) > 6) return false;
  if (/[.?!;]/.test(a.text.slice(start, end)) || MATH.test(a.text.slice(start, end))) return false;
  const first = toks[0];
  const last = toks[toks.length - 1];
  // A gerund names a practice ("Mulching") as well as a noun does.
  return toks.some((t) => t.content && (t.pos === "NOUN" || t.pos === "PROPN" || /ing$/.test(t.text))) && first.pos !== "PUNCT" && last.pos !== "PUNCT" && !last.stop;
}
/** A definition body carries at least three content words. */
const isBody = (a: Annotated, start: number, end: number) => contentIn(a, start, end).length >= 3;

/** "X is a …", "X refers to …", "X: …" inside one unit. */
function definitionOf(a: Annotated, unit: Unit): { term: string; body: string } | null {
  const { text } = a;
  const quote = text.slice(unit.start, unit.end);
  if (unit.kind === "label_value" && !quote.includes("\n")) {
    const colon = quote.indexOf(":");
    const termEnd = unit.start + colon;
    let bodyStart = termEnd + 1;
    while (/\s/.test(text[bodyStart] ?? "")) bodyStart++;
    const start = unit.start + (quote.length - quote.replace(/^[\s\p{Co}•▪◦●‣∙·*–-]+/u, "").length);
    // A value that stops on a comma or colon runs on in the next line: a fragment, not a definition.
    if (colon > 0 && isTerm(a, start, termEnd) && isBody(a, bodyStart, unit.end) && words(text.slice(bodyStart, unit.end)) >= 4 && !/[,;:]$/.test(quote)) {
      return { term: text.slice(start, termEnd).trim(), body: displayText(text.slice(bodyStart, unit.end)) };
    }
    return null;
  }
  if (unit.kind !== "sentence" && unit.kind !== "line" && unit.kind !== "list_item") return null;
  const toks = a.tokens.filter((t) => t.start >= unit.start && t.end <= unit.end && t.pos !== "SPACE");
  // The copula within the first seven tokens, a determiner (or "to") after it: "A cache is a small …".
  for (let i = 1; i < Math.min(toks.length - 3, 8); i++) {
    if (!COPULA.has(toks[i].text.toLowerCase())) continue;
    const next = toks[i + 1].text.toLowerCase();
    const after = toks[i].text.toLowerCase() === "refers" ? toks[i + 2]?.text.toLowerCase() : next;
    if (!DEFINING_DET.has(after ?? "")) return null;
    let from = 0;
    while (from < i && (toks[from].pos === "DET" || toks[from].pos === "PUNCT" || toks[from].pos === "SYM" || /^\p{Co}+$/u.test(toks[from].text))) from++;
    // "Another possibility is …", "This idea is …": the subject points elsewhere, it is not a term.
    if (toks.slice(0, from).some((t) => t.pos === "DET" && !["a", "an", "the"].includes(t.text.toLowerCase()))) return null;
    // The term opens the sentence ("Hence, the idea is …" defines nothing).
    if (from >= i || toks.slice(0, i).some((t) => t.pos === "PUNCT" && t.text !== "-" && t.start > toks[from].start)) return null;
    if (!["NOUN", "PROPN", "ADJ"].includes(toks[from].pos) || toks[from].text.length < 2) return null;
    const termStart = toks[from].start;
    const termEnd = toks[i - 1].end;
    if (!isTerm(a, termStart, termEnd) || toks.slice(from, i).some((t) => t.pos === "VERB" || t.pos === "AUX" || t.pos === "PRON")) return null;
    if (!isBody(a, toks[i + 1].start, unit.end)) return null;
    // The back is the whole sentence: it reads on its own and is the verbatim quote.
    return { term: text.slice(termStart, termEnd), body: displayText(text.slice(unit.start, unit.end)) };
  }
  return null;
}

/** A heading as a term: its words without a section number ("3.2 Cache attacks" → "Cache attacks"). */
function headingTerm(a: Annotated, heading: { start: number; end: number }): string | null {
  const raw = a.text.slice(heading.start, heading.end);
  const stripped = raw.replace(/^[\s\p{Co}•▪◦●‣∙·*–-]*(\d+(\.\d+)*\.?|[IVX]+\.|[A-Z]\.)?\s*/u, "");
  const start = heading.end - stripped.length;
  if (!stripped || DOT_LEADERS.test(stripped) || !isTerm(a, start, heading.end)) return null;
  return stripped.trim();
}

/** A fact with a value: the value blanked. Only when the rest still says something. */
function clozeOf(a: Annotated, unit: Unit): { front: string; answer: string; type: EntityType; priority: number } | null {
  const { text } = a;
  const inUnit = a.entities.filter((e) => e.start >= unit.start && e.end <= unit.end && CLOZE_TYPES.includes(e.type));
  const best = inUnit
    .filter((e) => !namesAThing(text, e, unit.start) && !inAWord(text, e) && !trivialNumber(e))
    .sort((x, y) => CLOZE_TYPES.indexOf(x.type) - CLOZE_TYPES.indexOf(y.type) || x.start - y.start)[0];
  if (!best) return null;
  const around = contentIn(a, unit.start, unit.end).filter((t) => t.end <= best.start || t.start >= best.end);
  if (around.length < 3) return null;
  const blanked = text.slice(unit.start, best.start) + BLANK + text.slice(best.end, unit.end);
  const priority = best.type === "CARDINAL" || best.type === "ORDINAL" ? 1 : 1.5;
  return { front: displayText(blanked), answer: best.text, type: best.type, priority };
}

/** A value glued to letters or list punctuation ("BKL07", "s0,0") is part of a name or an index. */
const inAWord = (text: string, e: EntitySpan) => /[\p{L}\p{N}_,.]$/u.test(text.slice(Math.max(0, e.start - 1), e.start)) || /^[\p{L}\p{N}_]/u.test(text.slice(e.end, e.end + 1));
/** "one", "two", "0", "1": counting words, rarely the fact a sentence is about. */
const trivialNumber = (e: EntitySpan) =>
  e.type === "CARDINAL" || e.type === "ORDINAL"
    ? /^(zero|one|two|first|second|[0-2]|[+-]\d+)$/i.test(e.text.trim())
    : // "summer", "today", "past years": a time without a number is no fact to recall.
      !/\d/.test(e.text);

function namesAThing(text: string, e: EntitySpan, floor: number): boolean {
  const before = text.slice(Math.max(floor, e.start - 16), e.start);
  // A list number at the start of the line ("3. Results") or a number naming a figure or lab.
  return NAMING_NOUNS.test(before) || (/(^|\n)\s*$/.test(before) && /^\d+(\.\d+)*[.)]?$/.test(e.text));
}

/** Values of each type in the course, with the document they came from. */
class ValuePool {
  private byType = new Map<string, Map<string, string>>();

  add(a: Annotated, documentId: string, running: Set<string>): void {
    for (const e of a.entities) {
      if (!CLOZE_TYPES.includes(e.type)) continue;
      const line = a.text.slice(a.text.lastIndexOf("\n", e.start) + 1, a.text.indexOf("\n", e.end) === -1 ? undefined : a.text.indexOf("\n", e.end));
      if (DOT_LEADERS.test(line) || running.has(`${documentId}\u0000${foldLine(line)}`)) continue;
      this.put(e.type, e.text);
    }
  }

  /** Definitions are pooled from the cards themselves. */
  put(type: string, value: string): void {
    const m = this.byType.get(type) ?? new Map<string, string>();
    this.byType.set(type, m);
    const key = answerKey(value);
    if (key && !m.has(key)) m.set(key, value.trim());
  }

  /**
   * Up to n values of the card's answer type, none equal to the answer (nor to each other) by
   * answerKey: the right answer is never offered twice. Spread over the pool, deterministic.
   */
  distractors(card: Pick<DraftCard, "answerType" | "back" | "front">, n: number): string[] {
    const values = [...(this.byType.get(card.answerType)?.entries() ?? [])];
    const right = answerKey(card.back);
    // Same shape first (digits for digits, words for words), so the answer does not stand out.
    const shape = (v: string) => (/\d/.test(v) ? 1 : 0);
    const choices = values
      .filter(([k]) => k !== right && !answerKey(card.front).includes(k))
      .sort(([, x], [, y]) => Number(shape(y) === shape(card.back)) - Number(shape(x) === shape(card.back)));
    if (choices.length <= n) return choices.map(([, v]) => v);
    // A start that depends on the answer, so cards do not all share the same three values.
    const seed = [...right].reduce((h, ch) => (h * 31 + ch.charCodeAt(0)) >>> 0, 7);
    const alike = choices.filter(([, v]) => shape(v) === shape(card.back));
    const from = alike.length >= n ? alike : choices;
    return Array.from({ length: n }, (_, i) => from[(seed + i) % from.length][1]);
  }
}
