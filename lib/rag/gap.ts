import type { QuestionAnalysis, RequestedPart } from "./analyze/analyze";
import { askKey } from "./dedupe";
import { readPassages, retrievalRanks, scoreParts, type ScoredUnit } from "./extractive/answer";
import { focusAbsentFrom, statesId, vocabularyOf, weightFocus, type PassageReading } from "./extractive/features";
import { defaultModel } from "./extractive/model";
import { TYPE_NOUNS, type AnswerType } from "./lexicon";
import { escapeRegExp } from "./text/regexp";
import { isCommonWord } from "./text/wordnet";
import type { AnswerCitation, AnswerPart, Hit, PartGap, Passage } from "./types";
import { answerCitation, isPassageNotNormalizedError, validateClaim } from "./validate";

/** How a kind of value is named to a student ("gives no phone number"). */
const VALUE_NAMES: Partial<Record<AnswerType, string>> = {
  date: "date",
  time: "time",
  duration: "length of time",
  percent: "percentage",
  money: "amount of money",
  count: "number",
  amount: "amount",
  email: "email address",
  phone: "phone number",
  url: "web address",
  person: "name",
  place: "place",
};

/**
 * gap: each missing part with why it is missing, told from the retrieved passages the gate scored
 * (whichever generator left it missing; a part is matched to the analysis by its words, and one
 * that matches none is left as it is). Parts that are not missing pass unchanged.
 */
export function explainGaps(parts: AnswerPart[], { analysis, hits }: { analysis: QuestionAnalysis; hits: readonly Hit[] }): AnswerPart[] {
  if (!parts.some((p) => p.state === "missing")) return parts;
  const passages = hits.map((h) => h.passage);
  // The gate's readings and scores of the same hits: scoreParts reuses them rather than scoring again.
  const readings = readPassages(passages, retrievalRanks(hits));
  const scored = scoreParts(analysis, readings, defaultModel);
  return parts.map((p) => {
    const i = p.state === "missing" ? analysis.parts.findIndex((a) => askKey(a.ask) === askKey(p.ask)) : -1;
    return i < 0 ? p : { ...p, gap: partGap(analysis.parts[i], scored[i], readings, passages) };
  });
}

/**
 * The most telling reason first: an identifier the question names that no passage states
 * ("Lab 7"), then the question's nouns no passage uses, then the closest unit lacking the kind of
 * value asked for, and last that the closest unit is too far from the question.
 */
function partGap(part: RequestedPart, scored: readonly ScoredUnit[], readings: readonly PassageReading[], passages: readonly Passage[]): PartGap {
  // Words borrowed from an earlier question were found by that question; the ones asked now are what is new.
  // A noun naming the kind of answer ("phone number") is said by a value of that kind, not by the word.
  const asked = part.focus.filter((f) => !f.borrowed && f.noun && !TYPE_NOUNS.has(f.lemma));
  // Every absent noun is named, so none needs its weight: no word statistics are measured.
  const absent = focusAbsentFrom(readings, weightFocus({ ...part, focus: asked }, () => 1, vocabularyOf(readings)))
    .map((f) => f.surface)
    .filter(nameable);
  // Words as the question writes them; an identifier may be glued to its noun ("HW2").
  const asWritten = (words: string[], between = "\\W+") => part.ask.match(new RegExp(`\\b${words.map(escapeRegExp).join(between)}\\b`, "i"))?.[0];
  // Words next to each other in the question are one phrase ("orchid import licence"), named as written there.
  const phrases: string[][] = [];
  for (const word of absent) {
    const last = phrases.at(-1);
    if (last && asWritten([...last, word])) last.push(word);
    else phrases.push([word]);
  }
  const named = quotedList(phrases.map((words) => asWritten(words) ?? words.join(" ")));
  // No passage holds any word searched for: the notes do not speak of it at all.
  if (!scored.length) return { kind: "nothing_found", text: named ? `Nothing in the notes mentions ${named}.` : "Nothing in the notes shares its words." };
  // An ordinal ("the second lab") is an identifier only where the notes number the noun: not one to name as absent.
  for (const { noun, id } of part.required.filter((r) => !r.ordinal && nameable(r.noun))) {
    if (!passages.some((p) => statesId(p.text, { noun, id }))) return unmentioned(quotedList([asWritten([noun, id], "\\W*") ?? `${noun} ${id}`]));
  }
  if (named) return unmentioned(named);
  const best = scored.find((s) => !s.excluded);
  if (!best) return { kind: "not_close", text: "No passage found answers it closely enough." };
  const near = passages[best.passage];
  const where = `The closest passage (${near.documentTitle}, PDF page ${near.pdfPage})`;
  const valueName = VALUE_NAMES[part.answerType];
  const closest = quoted(best, near);
  if (valueName && best.features.typeMissing) return { kind: "no_value", text: `${where} gives no ${valueName}.`, ...closest };
  return { kind: "not_close", text: `${where} does not answer it closely enough.`, ...closest };
}

/** The chip label of the closest passage: it is no source of an answer, so it takes no source number. */
export const CLOSEST_LABEL = "closest";

/**
 * The closest unit as a citation, checked against its passage as every quote is; nothing when it
 * does not check out, or when the passage cannot be mapped to its stored text: the reason stands
 * without it, and an answer never fails for its gap.
 */
function quoted(unit: ScoredUnit, passage: Passage): { closest?: AnswerCitation } {
  const registry = new Map([[CLOSEST_LABEL, { ...passage, label: CLOSEST_LABEL }]]);
  try {
    const { claim, problems } = validateClaim({ text: unit.quote, evidence: [{ sourceId: CLOSEST_LABEL, quote: unit.quote }] }, { partIndex: 0, claimIndex: 0 }, registry);
    return problems.length ? {} : { closest: answerCitation(claim.citations[0], passage) };
  } catch (e) {
    if (isPassageNotNormalizedError(e)) return {};
    throw e;
  }
}

/**
 * A word worth naming as absent: a short one only when English knows it ("lab", "fee"), so chat
 * shorthand ("tho", "ppl") and stray letters are not reported missing; a number only inside a word
 * ("HW2"), since a bare one ("the remaining 40") says nothing without its noun.
 */
const nameable = (word: string) => (/\d/.test(word) ? /\p{L}/u.test(word) : word.length >= 5 || (word.length >= 3 && isCommonWord(word)));

/** Words in quotes as a list: "“a”", "“a” or “b”", "“a”, “b” or “c”"; "" for none. */
const quotedList = (words: readonly string[]) => words.map((w) => `“${w}”`).join(", ").replace(/, (“[^”]*”)$/, " or $1");

const unmentioned = (named: string): PartGap => ({ kind: "unmentioned", text: `No passage found mentions ${named}.` });
