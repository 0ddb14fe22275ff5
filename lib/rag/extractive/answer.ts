/**
 * The extractive generator: for each requested part, every answer unit of every passage is
 * scored by the fitted ranker, and the best unit is quoted verbatim when it clears the
 * calibrated floor; below it the part is reported missing. Two documents giving different
 * values of the asked-for type are a conflict, unless exactly one side is an instructor-marked
 * correction, which then supersedes. Faithful by construction and deterministic.
 */
import type { QuestionAnalysis, RequestedPart } from "../analyze/analyze";
import { annotate, contentLemmas, type Annotated, type EntityType } from "../text/nlp";
import type { DraftClaim, DraftPart, GenerateState, Hit, LabelledPassage, Passage } from "../types";
import { contradictsRequiredId, numberedIds, requiredIn, shortFormsIn, symbolsDefinedIn, focusFoundIn, isReferenceEntry, isTableOfContents, segmentIdf, unitFeatures, vocabularyOf, weightFocus, type Features, type PassageReading } from "./features";
import { bearsOnPart, defaultModel, mustStateType, NEIGHBOUR_FLOOR_SHARE, probability, rankScore, type ExtractiveModel } from "./model";
import { isRunningLine, isTitleLine } from "./scope";
import { answerUnits, displayText, endsInRows, isBareItemLabel, itemNounOf, openingLines, partLetterOf, sectionTitleEnd, sectionTitles, type Unit } from "./units";

/** Two units speak of the same thing when their focus coverage differs by no more than this (a share of the question's weight). */
const SAME_SUBJECT_SLACK = 0.05;

export interface ScoredUnit {
  /** Index into the passages given. */
  passage: number;
  unit: Unit;
  quote: string;
  features: Features;
  /** Ranking score: orders the units of a part. */
  rank: number;
  /** Calibrated probability that quoting this unit answers the part right. */
  score: number;
  /** Why the unit can never answer this part (it names another identifier), or null. */
  excluded: string | null;
}

const titleCache = new Map<string, ReadonlySet<string>>();
function titleLemmas(title: string): ReadonlySet<string> {
  let set = titleCache.get(title);
  if (!set) {
    set = new Set(contentLemmas(title.replace(/\.(pdf|docx?|pptx?|txt)$/i, "").replace(/[_-]+/g, " ")));
    if (titleCache.size > 1000) titleCache.clear();
    titleCache.set(title, set);
  }
  return set;
}

/** Units by annotation (and whether the passage continues a table's rows): annotate() caches by text, so the gate and the answer cut a passage once. */
const unitCaches = { rows: new WeakMap<Annotated, Unit[]>(), plain: new WeakMap<Annotated, Unit[]>() };
function unitsOf(annotated: Annotated, continuesRows: boolean): Unit[] {
  const cache = continuesRows ? unitCaches.rows : unitCaches.plain;
  let units = cache.get(annotated);
  if (!units) cache.set(annotated, (units = answerUnits(annotated, continuesRows)));
  return units;
}

/** Each hit's place in retrieval (1 = best), keyed by its chunk: what `readPassages` takes as `ranks`. */
export const retrievalRanks = (hits: readonly Hit[]): Map<string, number> => new Map(hits.map((h) => [h.passage.chunkId, h.rank]));

/**
 * Each passage annotated and cut into units; `ranks` gives retrieval order (default: the order
 * given). Scope terms say which course or document, not which answer: the document's own (its
 * title line and running headers, kept at ingestion) and the title words every document of
 * `retrieved` (default: these passages) shares.
 */
export function readPassages(passages: readonly Passage[], ranks?: ReadonlyMap<string, number>, retrieved: readonly Passage[] = passages): PassageReading[] {
  const titles = [...new Set(retrieved.map((p) => p.documentTitle))].map(titleLemmas);
  const shared = titles.length ? [...titles[0]].filter((l) => titles.every((t) => t.has(l))) : [];
  return passages.map((p, i) => {
    const annotated = annotate(p.text);
    // The document's first line (its title line) names the course or document; it rarely answers a question.
    const firstLine = p.text.slice(0, Math.max(0, p.text.search(/\n|$/)));
    const titleLineEnd = p.pdfPage === 1 && p.charStart === 0 && isTitleLine(firstLine) ? firstLine.length : 0;
    return { chunkId: p.chunkId, rank: (ranks?.get(p.chunkId) ?? i + 1) - 1, annotated, units: unitsOf(annotated, continuesBlock(p) && endsInRows(p.before ?? "", p.text)), titleLineEnd, titleLemmas: new Set([...shared, ...(p.scopeTerms ?? [])]), sections: sectionsOf(p, annotated) };
  });
}

/** Whether a passage starts inside a block of its page: no blank line between the text above it and its first line. */
const continuesBlock = (p: Passage) => !!p.before?.trim() && !/\n\s*\n\s*$/.test(p.before);

/**
 * The section titles over a passage: the last one in the page text above it, then its own. A
 * numbered item under an item of another noun ("Step 2: …" under "Worked Example 4.2 — …"), and a
 * title on the line right under another (a table's header row under its caption "Table 2.4: …"), is
 * part of the one above: the lines under it are about both titles.
 */
function sectionsOf(p: Passage, annotated: Annotated): PassageReading["sections"] {
  const before = p.before ?? "";
  // A passage that starts inside a block (a table cut by a chunk boundary) does not open a section with its first line.
  const continues = continuesBlock(p);
  const titlesIn = (text: string, from: (start: number) => number, lemmasOf: (start: number, end: number) => Set<string>, offset: number) =>
    sectionTitles(text).map((t) => {
      const title = text.slice(t.start, t.end);
      const statementEnd = sectionTitleEnd(text, t);
      return { from: from(t.start), title, lemmas: lemmasOf(t.start, statementEnd), source: text, start: t.start, end: t.end, rows: !!t.rows, posedTo: itemNounOf(title) ? statementEnd - offset : -1 };
    });
  // A header row is known by the rows under it, which a chunk boundary may leave in the passage.
  const over = before + openingLines(p.text);
  const titles = [
    ...titlesIn(over, () => -1, (a, b) => new Set(contentLemmas(over.slice(a, b))), before.length).filter((t) => t.start < before.length),
    ...titlesIn(p.text, (a) => a, (a, b) => new Set(annotated.tokens.filter((k) => k.content && k.start >= a && k.end <= b).map((k) => k.lemma)), 0).filter((t) => !(continues && t.start === 0)),
  ];
  const nested: Array<PassageReading["sections"][number]> = [];
  titles.forEach(({ from, title, lemmas, source, start, rows, posedTo }, i) => {
    const noun = itemNounOf(title);
    const above = titles[i - 1];
    // An item sits in the last item of another noun ("Table 1." in "Problem 1 · …", past the table's header row), else in the last title of another noun.
    const earlier = titles.slice(0, i);
    const otherItem = earlier.findLastIndex((o) => ![null, noun].includes(itemNounOf(o.title)));
    // A table's header row in a numbered item's working ("Stage Motion Duration Distance" under "Problem 9 …") is part of the item, unless a heading came between.
    const inItem = rows && otherItem >= 0 && earlier.slice(otherItem + 1).every((o) => o.rows || partLetterOf(o.title));
    const k = noun
      ? otherItem >= 0 ? otherItem : earlier.findLastIndex((o) => itemNounOf(o.title) !== noun)
      : above && above.source === source && /^[^\S\n]*\n[^\S\n]*$/.test(source.slice(above.end, start))
        ? i - 1
        : partLetterOf(title) || inItem ? otherItem : -1;
    const outer = nested[k];
    nested.push(outer ? { from, lemmas: new Set([...lemmas, ...outer.lemmas]), titles: `${outer.titles}\n${title}`, posedTo } : { from, lemmas, titles: title, posedTo });
  });
  const above = nested.filter((t) => t.from < 0).at(-1);
  const own = nested.filter((t) => t.from >= 0);
  return above ? [above, ...own] : own;
}

/** Why a unit can never answer a part, however well it scores, or null. */
function exclusion(part: RequestedPart, reading: PassageReading, unit: Unit, quote: string, features: Features): string | null {
  if (contradictsRequiredId(requiredIn(part, reading.titleLemmas), quote)) return "names another identifier";
  if (isTableOfContents(quote)) return "a table-of-contents entry";
  if (isReferenceEntry(reading.annotated.text, unit.start)) return "a reference-list entry";
  if (features.question) return "asks a question, states nothing";
  if (unit.start < reading.titleLineEnd && unit.end > reading.titleLineEnd) return "joins the document's title line to the text below it";
  if (unit.start >= reading.titleLineEnd && isRunningLine(quote, reading.titleLemmas)) return "a running header or footer";
  if (features.requiredMissing && features.typeMissing) return "states neither the identifier asked about nor a value of the asked-for kind";
  if (isBareItemLabel(quote)) return "names a numbered item and says nothing of it";
  return null;
}

/**
 * Every unit of every passage scored for each part (parts in order, units best-ranked first).
 * Word statistics (IDF, how much of the focus the notes hold) are measured over `basis`: every
 * passage retrieval returned, so that a unit scores the same at the gate, which reads them all,
 * and in the answer, which reads the passages that passed (default: the readings themselves).
 */
export function scoreParts(analysis: QuestionAnalysis, readings: readonly PassageReading[], model: ExtractiveModel = defaultModel, basis: readonly PassageReading[] = readings): ScoredUnit[][] {
  const reused = fromGate(analysis, readings, model, basis);
  if (reused) return reused;
  const scored = scoreAll(analysis, readings, model, basis);
  if (readings === basis) gateScores.set(analysis, { model: model.weights, calibration: model.calibration, chunkIds: basis.map((r) => r.chunkId), scored });
  return scored;
}

/**
 * The gate's scores of one question, kept for the answer: a unit's features depend only on the
 * question, the unit's passage and the retrieved passages, so the answer, reading the passages
 * that passed against the same retrieved set, takes the gate's scores instead of computing them
 * again. Keyed by the analysis, which the pipeline computes once per question.
 */
const gateScores = new WeakMap<QuestionAnalysis, { model: ExtractiveModel["weights"]; calibration: ExtractiveModel["calibration"]; chunkIds: string[]; scored: ScoredUnit[][] }>();

function fromGate(analysis: QuestionAnalysis, readings: readonly PassageReading[], model: ExtractiveModel, basis: readonly PassageReading[]): ScoredUnit[][] | null {
  const kept = gateScores.get(analysis);
  if (!kept || kept.model !== model.weights || kept.calibration !== model.calibration) return null;
  if (kept.chunkIds.length !== basis.length || kept.chunkIds.some((id, i) => id !== basis[i].chunkId)) return null;
  const at = new Map(readings.map((r, i) => [r.chunkId, i]));
  if (at.size !== readings.length || readings.some((r) => !kept.chunkIds.includes(r.chunkId))) return null;
  // Same order as scoring them afresh: rank, then retrieval rank, then position, none of which the subset changes.
  return kept.scored.map((units) => units.flatMap((s) => (at.has(kept.chunkIds[s.passage]) ? [{ ...s, passage: at.get(kept.chunkIds[s.passage])! }] : [])));
}

function scoreAll(analysis: QuestionAnalysis, readings: readonly PassageReading[], model: ExtractiveModel, basis: readonly PassageReading[]): ScoredUnit[][] {
  const idf = segmentIdf(basis);
  const shortForms = shortFormsIn(basis);
  const symbols = symbolsDefinedIn(basis);
  const questionLemmas = new Set(contentLemmas(analysis.standalone));
  const vocabulary = vocabularyOf(basis);
  return analysis.parts.map((asked) => {
    const part = numberedIds(asked, basis);
    const focus = weightFocus(part, idf, vocabulary);
    const passageCover = focusFoundIn(basis, focus);
    const scored: ScoredUnit[] = [];
    readings.forEach((reading, passage) => {
      const pageCover = focusFoundIn([reading], focus);
      for (const unit of reading.units) {
        const quote = reading.annotated.text.slice(unit.start, unit.end);
        const features = unitFeatures({ part, focus, passageCover, pageCover, questionLemmas, reading, unit, shortForms, symbols });
        const excluded = exclusion(part, reading, unit, quote, features);
        scored.push({ passage, unit, quote, features, rank: excluded ? -Infinity : rankScore(model, features), score: excluded ? 0 : probability(model, features), excluded });
      }
    });
    return scored.sort((a, b) => b.rank - a.rank || readings[a.passage].rank - readings[b.passage].rank || a.unit.start - b.unit.start);
  });
}

const overlaps = (a: ScoredUnit, b: ScoredUnit) => a.passage === b.passage && a.unit.start < b.unit.end && b.unit.start < a.unit.end;
/** Overlapping chunks hold the same lines, so a unit of another passage may repeat, or lie inside, one already chosen. */
const repeats = (a: ScoredUnit, b: ScoredUnit) => {
  const [x, y] = [displayText(a.quote).toLowerCase(), displayText(b.quote).toLowerCase()];
  return x.includes(y) || y.includes(x);
};

/**
 * Two sentences next to each other in one paragraph: the later continues the earlier. Rows, list
 * items and label lines next to each other are separate records ("Week 11 | …" above "Week 12 | …").
 */
export function continues(a: ScoredUnit, b: ScoredUnit, readings: readonly PassageReading[]): boolean {
  if (a.passage !== b.passage || a.unit.kind !== "sentence" || b.unit.kind !== "sentence") return false;
  const [first, second] = a.unit.start < b.unit.start ? [a, b] : [b, a];
  return first.unit.end <= second.unit.start && /^[^\S\n]*\n?[^\S\n]*$/.test(readings[a.passage].annotated.text.slice(first.unit.end, second.unit.start));
}

/** The entity type whose values must agree for a part's answer ("date" → DATE: two notices may share a time of day yet disagree on the day). */
const VALUE_ENTITY: Record<string, EntityType> = { date: "DATE", time: "TIME", duration: "DURATION", percent: "PERCENT", money: "MONEY", count: "CARDINAL", amount: "PERCENT", phone: "PHONE" };

/** The values of the asked-for type a unit states, other than those the question itself names ("Assignment 2"). */
function valuesOf(s: ScoredUnit, part: RequestedPart, readings: readonly PassageReading[]): Set<string> {
  const type = VALUE_ENTITY[part.answerType];
  const named = new Set(part.required.map((r) => r.id));
  return new Set(
    readings[s.passage].annotated.entities
      .filter((e) => e.type === type && e.start >= s.unit.start && e.end <= s.unit.end)
      .map((e) => e.text.toLowerCase().replace(/\s+/g, " "))
      .filter((v) => !named.has(v)),
  );
}

function answerPart(part: RequestedPart, scored: ScoredUnit[], passages: readonly LabelledPassage[], readings: readonly PassageReading[], model: ExtractiveModel): DraftPart {
  const claim = (s: ScoredUnit): DraftClaim => ({ text: displayText(s.quote), evidence: [{ sourceId: passages[s.passage].label, quote: s.quote }] });
  const best = scored.find((s) => !s.excluded);
  if (!best || best.score < model.floor) return { ask: part.ask, state: "missing", claims: [] };

  if (VALUE_ENTITY[part.answerType] && best.features.typeMatch) {
    const bestDoc = passages[best.passage].documentId;
    const bestValues = valuesOf(best, part, readings);
    // Another document's unit that is an answer in its own right, about the same thing (it covers the question as fully), stating a value of the asked-for type.
    const about = (s: ScoredUnit) => s.features.cover + s.features.coverRelated;
    const rivals = scored.filter(
      (s) =>
        !s.excluded &&
        s.features.typeMatch &&
        s.score >= model.floor &&
        about(s) >= about(best) - SAME_SUBJECT_SLACK &&
        s.features.requiredId === best.features.requiredId &&
        passages[s.passage].documentId !== bestDoc &&
        valuesOf(s, part, readings).size > 0,
    );
    if (rivals.length) {
      // An instructor's correction supersedes every other statement of the value, however many repeat the old one.
      const isCorrection = (s: ScoredUnit) => passages[s.passage].isCorrection;
      const sides = [best, ...rivals];
      const correction = sides.find(isCorrection);
      if (correction && !sides.every(isCorrection)) return { ask: part.ask, state: "supported", claims: [claim(correction)] };
      const rival = rivals[0];
      if (![...valuesOf(rival, part, readings)].some((v) => bestValues.has(v))) return { ask: part.ask, state: "conflicting", claims: [claim(best), claim(rival)] };
    }
  }

  // A close second is a second answer: it holds the asked-for kind of value when the best one does.
  const eligible = (s: ScoredUnit) =>
    !s.excluded &&
    (s.score >= Math.max(model.floor, model.secondRatio * best.score) || (s.score >= NEIGHBOUR_FLOOR_SHARE * model.floor && bearsOnPart(s.features) && continues(best, s, readings))) &&
    !(best.features.typeMatch && !s.features.typeMatch) &&
    !overlaps(best, s) &&
    !repeats(best, s);
  // At most two claims a part: the best unit and a second one close to it (or the other side of a conflict).
  // When the best one lacks that kind of value ("office hours" without the hours), the part is missing (mustStateType):
  // a lower unit that states one was almost always another item's value (see model.ts).
  if (mustStateType(part.answerType, best.features)) return { ask: part.ask, state: "missing", claims: [] };
  const second = scored.find(eligible);
  return { ask: part.ask, state: "supported", claims: (second ? [best, second] : [best]).map(claim) };
}

/**
 * generate (extractive): one DraftPart per requested part, supported (verbatim quotes),
 * conflicting (one claim per side) or missing (no claims). Every quote is an exact substring of
 * its passage. Units are scored against `retrieved` (default: the passages), as the gate scored
 * them. Same input, same output.
 */
export function generateExtractive(
  { analysis, passages, ranks, retrieved = passages }: { analysis: QuestionAnalysis; passages: LabelledPassage[]; ranks?: ReadonlyMap<string, number>; retrieved?: readonly Passage[] },
  model: ExtractiveModel = defaultModel,
): GenerateState {
  const readings = readPassages(passages, ranks, retrieved);
  const scored = scoreParts(analysis, readings, model, retrieved === passages ? readings : readPassages(retrieved, ranks));
  const seen = new Set<string>();
  const parts: DraftPart[] = [];
  analysis.parts.forEach((part, i) => {
    // A part asked twice is answered once.
    const key = part.ask.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    parts.push(answerPart(part, scored[i], passages, readings, model));
  });
  if (parts.length === 0 && analysis.question.trim()) parts.push({ ask: analysis.question.trim(), state: "missing", claims: [] });
  return { parts, raw: JSON.stringify(parts) };
}
