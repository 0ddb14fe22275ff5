/**
 * Golden-set metrics: pure functions over (golden question, answer) records. No database, no
 * pipeline: lib/eval/run.ts produces the records, this file only counts.
 *
 * Every rate is returned with its numerator and denominator, and `rate: null` when nothing was
 * eligible, so an empty category never reads as 0% or 100%.
 */
import { z } from "zod";
import type { AnswerCitation, AnswerPart } from "@/lib/rag/types";

// ─── The golden set's shape ─────────────────────────────────────────────────────────────────

export const splits = ["tune", "test"] as const;
export type Split = (typeof splits)[number];

/** The statuses a golden question may expect: the evidence outcomes (operational failures are never expected). */
export const expectations = ["answered", "partial", "insufficient_evidence", "conflicting_evidence"] as const;
export type Expectation = (typeof expectations)[number];

export const kinds = ["answerable", "unanswerable", "two-part", "follow-up"] as const;
export type Kind = (typeof kinds)[number];

export const goldenPageSchema = z.object({
  /** A substring of the document title (case-insensitive), e.g. "Course Syllabus" or "cs430". */
  document: z.string().min(1),
  /** 1-based physical page ("PDF page N"), not the printed label. */
  pdfPage: z.number().int().min(1),
  /** The gold passage's text on that page, when it was picked from search results (the whole page counts otherwise). */
  quote: z.string().min(1).optional(),
  /** The passage's offsets in the stored page text, when known. */
  charStart: z.number().int().min(0).optional(),
  charEnd: z.number().int().min(1).optional(),
});
export type GoldenPage = z.infer<typeof goldenPageSchema>;

export const goldenQuestionSchema = z
  .object({
    id: z.string().min(1),
    /** "demo" or a corpus file stem (= the course slug in the evaluation database). */
    course: z.string().min(1),
    question: z.string().min(1),
    /** Earlier questions of the conversation, oldest first. */
    history: z.array(z.string().min(1)).optional(),
    expect: z.enum(expectations),
    /** Pages a correct citation may point to (any one of them counts). */
    pages: z.array(goldenPageSchema).min(1).optional(),
    /** A short substring the cited quote or the claim must contain. */
    answer: z.string().min(1).optional(),
    kind: z.enum(kinds),
    split: z.enum(splits),
    /** Clearly outside the course (a trivia or cooking question): must never be answered. */
    offTopic: z.boolean().optional(),
    /** Why the label is what it is, for a reader checking it. */
    note: z.string().optional(),
  })
  .strict()
  .superRefine((g, ctx) => {
    const evidence = g.expect === "answered" || g.expect === "partial";
    if (evidence && !g.pages) ctx.addIssue({ code: "custom", path: ["pages"], message: `an "${g.expect}" question needs the page(s) that support it` });
    if (!evidence && g.expect === "insufficient_evidence" && (g.pages || g.answer)) {
      ctx.addIssue({ code: "custom", path: ["pages"], message: "an insufficient_evidence question has no supporting page or answer" });
    }
    if (g.offTopic && g.expect !== "insufficient_evidence") ctx.addIssue({ code: "custom", path: ["offTopic"], message: "an off-topic question must expect insufficient_evidence" });
    if (g.kind === "follow-up" && !g.history?.length) ctx.addIssue({ code: "custom", path: ["history"], message: "a follow-up needs its history" });
    if (g.kind === "unanswerable" && g.expect !== "insufficient_evidence") ctx.addIssue({ code: "custom", path: ["expect"], message: "an unanswerable question expects insufficient_evidence" });
    if (g.kind === "answerable" && !evidence) ctx.addIssue({ code: "custom", path: ["expect"], message: "an answerable question expects answered or partial" });
  });
export type GoldenQuestion = z.infer<typeof goldenQuestionSchema>;

// ─── What a run produced ────────────────────────────────────────────────────────────────────

export interface EvalCitation {
  documentTitle: string;
  pdfPage: number;
  quote: string;
}

export interface EvalPart {
  ask: string;
  state: AnswerPart["state"];
  claims: Array<{ text: string; citations: EvalCitation[] }>;
}

/** An answer's parts as the metrics read them; `extra` adds fields to each citation. */
export function evalParts<X extends object>(
  parts: readonly AnswerPart[],
  extra: (citation: AnswerCitation) => X = () => ({}) as X,
): Array<Omit<EvalPart, "claims"> & { claims: Array<{ text: string; citations: Array<EvalCitation & X> }> }> {
  return parts.map((p) => ({
    ask: p.ask,
    state: p.state,
    claims: p.claims.map((c) => ({
      text: c.text,
      citations: c.citations.map((cit) => ({ documentTitle: cit.documentTitle, pdfPage: cit.pdfPage, quote: cit.quote, ...extra(cit) })),
    })),
  }));
}

export interface EvalRecord {
  golden: GoldenQuestion;
  /** The answer's status (any AnswerStatus, including operational failures). */
  status: string;
  parts: EvalPart[];
}

export interface Rate {
  hits: number;
  n: number;
  /** hits / n, or null when n = 0. */
  rate: number | null;
}

export const rate = (hits: number, n: number): Rate => ({ hits, n, rate: n === 0 ? null : hits / n });

const GIVES_ANSWER = new Set(["answered", "partial"]);
/** Statuses that assert something about the notes (a conflict shows claims too). */
const ASSERTS = new Set(["answered", "partial", "conflicting_evidence"]);
const OPERATIONAL = new Set(["retrieval_error", "generation_error"]);

const expectsEvidence = (g: GoldenQuestion) => g.expect === "answered" || g.expect === "partial";

// ─── Matching helpers ───────────────────────────────────────────────────────────────────────

/** Lower case, NFKC, one kind of dash and quote, single spaces: how substrings are compared. */
export function normalizeForMatch(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, "-")
    .replace(/[\u2018\u2019\u201a\u201b]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f]/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

export function pageMatches(page: { documentTitle: string; pdfPage: number }, expected: GoldenPage): boolean {
  return page.pdfPage === expected.pdfPage && page.documentTitle.toLowerCase().includes(expected.document.toLowerCase());
}

export function onExpectedPage(page: { documentTitle: string; pdfPage: number }, expected: readonly GoldenPage[] | undefined): boolean {
  return !!expected && expected.some((e) => pageMatches(page, e));
}

const supportedParts = (r: EvalRecord) => r.parts.filter((p) => p.state === "supported");

/** Does a supported part cite one of the expected pages? (Questions with pages that gave an answer.) */
export function partCitesExpectedPage(part: EvalPart, expected: readonly GoldenPage[]): boolean {
  return part.claims.some((c) => c.citations.some((cit) => onExpectedPage(cit, expected)));
}

/** Does a supported claim's text or one of its quotes contain the expected substring? */
export function answerFound(r: EvalRecord): boolean {
  if (!r.golden.answer) return false;
  const wanted = normalizeForMatch(r.golden.answer);
  return supportedParts(r).some((p) =>
    p.claims.some((c) => normalizeForMatch(c.text).includes(wanted) || c.citations.some((cit) => normalizeForMatch(cit.quote).includes(wanted))),
  );
}

// ─── Metrics ────────────────────────────────────────────────────────────────────────────────

/** Share of questions whose status is exactly the expected one. */
export function statusAccuracy(records: readonly EvalRecord[]): Rate {
  return rate(records.filter((r) => r.status === r.golden.expect).length, records.length);
}

/** Of the questions the notes can (at least partly) answer: share that got an answer (answered or partial). */
export function answerableAnsweredRate(records: readonly EvalRecord[]): Rate {
  const eligible = records.filter((r) => expectsEvidence(r.golden));
  return rate(eligible.filter((r) => GIVES_ANSWER.has(r.status)).length, eligible.length);
}

/** Of the questions the notes can (at least partly) answer: share refused as insufficient_evidence. */
export function unhelpfulRefusalRate(records: readonly EvalRecord[]): Rate {
  const eligible = records.filter((r) => expectsEvidence(r.golden));
  return rate(eligible.filter((r) => r.status === "insufficient_evidence").length, eligible.length);
}

/**
 * Of the questions that must be declined (expect insufficient_evidence): share that asserted
 * something instead (answered, partial or conflicting). `offTopicOnly` restricts to clearly
 * off-topic questions.
 */
export function falseAnswerRate(records: readonly EvalRecord[], { offTopicOnly = false }: { offTopicOnly?: boolean } = {}): Rate {
  const eligible = records.filter((r) => r.golden.expect === "insufficient_evidence" && (!offTopicOnly || r.golden.offTopic));
  return rate(eligible.filter((r) => ASSERTS.has(r.status)).length, eligible.length);
}

/** Of the two-part questions with one part missing (expect partial): share answered in full (the missing part got a claim). */
export function partialOverAnswerRate(records: readonly EvalRecord[]): Rate {
  const eligible = records.filter((r) => r.golden.expect === "partial");
  return rate(eligible.filter((r) => r.status === "answered").length, eligible.length);
}

/**
 * Citation page accuracy: of the supported parts of answers (answered/partial) to questions with
 * expected pages, the share whose citations include an expected page.
 */
export function citationPageAccuracy(records: readonly EvalRecord[]): Rate {
  let hits = 0;
  let n = 0;
  for (const r of records) {
    if (!r.golden.pages || !GIVES_ANSWER.has(r.status)) continue;
    for (const part of supportedParts(r)) {
      n++;
      if (partCitesExpectedPage(part, r.golden.pages)) hits++;
    }
  }
  return rate(hits, n);
}

/** Of the answers (answered/partial) to questions with an expected substring: share whose claims or quotes contain it. */
export function answerHitRate(records: readonly EvalRecord[]): Rate {
  const eligible = records.filter((r) => r.golden.answer && GIVES_ANSWER.has(r.status));
  return rate(eligible.filter(answerFound).length, eligible.length);
}

/** Answers withheld because their citations failed validation. Must be 0 for the extractive generator. */
export function validationFailures(records: readonly EvalRecord[]): number {
  return records.filter((r) => r.status === "validation_failed").length;
}

/** Retrieval or generation errors (operational, not about the notes). */
export function operationalErrors(records: readonly EvalRecord[]): number {
  return records.filter((r) => OPERATIONAL.has(r.status)).length;
}

/** Expected status → got status → count. */
export function confusion(records: readonly EvalRecord[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const r of records) {
    const row = (out[r.golden.expect] ??= {});
    row[r.status] = (row[r.status] ?? 0) + 1;
  }
  return out;
}

export interface GroupMetrics {
  n: number;
  statusAccuracy: Rate;
  answerableAnswered: Rate;
  falseAnswers: Rate;
  pageAccuracy: Rate;
  answerHits: Rate;
}

function groupMetrics(records: readonly EvalRecord[]): GroupMetrics {
  return {
    n: records.length,
    statusAccuracy: statusAccuracy(records),
    answerableAnswered: answerableAnsweredRate(records),
    falseAnswers: falseAnswerRate(records),
    pageAccuracy: citationPageAccuracy(records),
    answerHits: answerHitRate(records),
  };
}

function groupBy(records: readonly EvalRecord[], key: (r: EvalRecord) => string): Record<string, GroupMetrics> {
  const groups = new Map<string, EvalRecord[]>();
  for (const r of records) {
    const k = key(r);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return Object.fromEntries([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, rs]) => [k, groupMetrics(rs)]));
}

/** Per-kind breakdown (answerable, unanswerable, two-part, follow-up). */
export function byKind(records: readonly EvalRecord[]): Record<string, GroupMetrics> {
  return groupBy(records, (r) => r.golden.kind);
}

export function byCourse(records: readonly EvalRecord[]): Record<string, GroupMetrics> {
  return groupBy(records, (r) => r.golden.course);
}

export interface Metrics {
  n: number;
  statusAccuracy: Rate;
  answerableAnswered: Rate;
  unhelpfulRefusals: Rate;
  falseAnswers: Rate;
  offTopicFalseAnswers: Rate;
  partialOverAnswered: Rate;
  pageAccuracy: Rate;
  answerHits: Rate;
  validationFailures: number;
  operationalErrors: number;
  confusion: Record<string, Record<string, number>>;
  byKind: Record<string, GroupMetrics>;
  byCourse: Record<string, GroupMetrics>;
}

export function computeMetrics(records: readonly EvalRecord[]): Metrics {
  return {
    n: records.length,
    statusAccuracy: statusAccuracy(records),
    answerableAnswered: answerableAnsweredRate(records),
    unhelpfulRefusals: unhelpfulRefusalRate(records),
    falseAnswers: falseAnswerRate(records),
    offTopicFalseAnswers: falseAnswerRate(records, { offTopicOnly: true }),
    partialOverAnswered: partialOverAnswerRate(records),
    pageAccuracy: citationPageAccuracy(records),
    answerHits: answerHitRate(records),
    validationFailures: validationFailures(records),
    operationalErrors: operationalErrors(records),
    confusion: confusion(records),
    byKind: byKind(records),
    byCourse: byCourse(records),
  };
}

// ─── Misses and their causes ────────────────────────────────────────────────────────────────

/**
 * Which stage lost a question:
 * - `retrieval`: no retrieved passage was on an expected page;
 * - `gate`: one was retrieved but the evidence gate rejected every such passage;
 * - `packing`: one passed the gate but was not sent (passage cap or budget);
 * - `extractive`: an expected page was sent, yet the answer missed it (no claim, the wrong sentence, or not the expected text);
 * - `false_answer`: something was asserted that the notes do not support (an unanswerable question, or the missing part of a partial one);
 * - `wrong_status`: the evidence was right but the status was not (e.g. conflicting for a superseded date);
 * - `error`: validation failed or an operational error.
 */
export type MissCause = "retrieval" | "gate" | "packing" | "extractive" | "false_answer" | "wrong_status" | "error";
export const missCauses: readonly MissCause[] = ["retrieval", "gate", "packing", "extractive", "false_answer", "wrong_status", "error"];

export interface StagePages {
  retrieved: ReadonlyArray<{ documentTitle: string; pdfPage: number }>;
  passed: ReadonlyArray<{ documentTitle: string; pdfPage: number }>;
  sent: ReadonlyArray<{ documentTitle: string; pdfPage: number }>;
}

/** Is this record a miss: wrong status, or an answer that cites no expected page or lacks the expected text? */
export function isMiss(r: EvalRecord): boolean {
  if (r.status !== r.golden.expect) return true;
  if (!GIVES_ANSWER.has(r.status)) return false;
  if (r.golden.pages && !supportedParts(r).every((p) => partCitesExpectedPage(p, r.golden.pages!))) return true;
  if (r.golden.answer && !answerFound(r)) return true;
  return false;
}

/** The cause of a miss (null when the record is not a miss), from the pages each stage kept. */
export function diagnose(r: EvalRecord, stages: StagePages): MissCause | null {
  if (!isMiss(r)) return null;
  if (r.status === "validation_failed" || OPERATIONAL.has(r.status)) return "error";
  const g = r.golden;
  if (g.expect === "insufficient_evidence") return ASSERTS.has(r.status) ? "false_answer" : "wrong_status";
  if (g.expect === "partial" && r.status === "answered") return "false_answer";
  if (g.expect === "conflicting_evidence" || r.status === "conflicting_evidence") return "wrong_status";
  if (g.pages) {
    if (!stages.retrieved.some((p) => onExpectedPage(p, g.pages))) return "retrieval";
    if (!stages.passed.some((p) => onExpectedPage(p, g.pages))) return "gate";
    if (!stages.sent.some((p) => onExpectedPage(p, g.pages))) return "packing";
    return "extractive";
  }
  return "wrong_status";
}
