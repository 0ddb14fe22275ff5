/**
 * The metrics of a golden-set run on one course (the workbench's Evaluation page and
 * `npm run eval -- --course … --set …`): retrieval against the gold passages (Hit@k, MRR,
 * Precision@k, Recall@k), sufficient evidence in the packed context, citation validity, answer
 * correctness, faithfulness, refusals and abstentions, per-stage latency. Pure functions over
 * one record a question; lib/eval/course-run.ts produces the records.
 */
import { keyTerms } from "@/lib/workbench/topics";
import { answerFound, normalizeForMatch, pageMatches, rate, unhelpfulRefusalRate, type EvalPart, type EvalRecord, type GoldenPage, type Rate } from "./metrics";

/** A passage as a stage kept it, with its text and its offset in the page text. */
export interface StagePassage {
  chunkId: string;
  documentTitle: string;
  pdfPage: number;
  text: string;
  charStart: number;
}

export interface CitedSource {
  documentTitle: string;
  pdfPage: number;
  text: string;
}

/** A citation with the passage it names as stored (null when no such passage exists). */
export interface JudgedCitation {
  documentTitle: string;
  pdfPage: number;
  quote: string;
  source: CitedSource | null;
}

/** A model's verdicts on one answer, when a model is configured. */
export interface JudgeVerdict {
  correct: boolean;
  /** Claims the model found supported by their quotes, of `claims`. */
  supportedClaims: number;
  claims: number;
}

export interface SetPart extends EvalPart {
  claims: Array<{ text: string; citations: JudgedCitation[] }>;
}

export interface SetRecord extends EvalRecord {
  parts: SetPart[];
  /** The number of passages asked of retrieval. */
  k: number;
  /** Retrieved, in rank order. */
  retrieved: StagePassage[];
  /** Sent to the generator (the packed context). */
  sent: StagePassage[];
  /** The gate's best answer score among the retrieved passages (null when the run stopped before the gate). */
  topScore: number | null;
  /** Milliseconds per stage, from the trace. */
  timings: Record<string, number>;
  judge?: JudgeVerdict;
}

/** A mean over the eligible questions, null when none was. */
export interface Mean {
  value: number | null;
  n: number;
}

const mean = (values: number[]): Mean => ({ value: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null, n: values.length });

const GIVES_ANSWER = new Set(["answered", "partial"]);
const expectsEvidence = (r: SetRecord) => (r.golden.expect === "answered" || r.golden.expect === "partial") && !!r.golden.pages?.length;

// ─── Relevance ──────────────────────────────────────────────────────────────────────────────

/** Do two texts share the gold evidence: one contains the other (normalised)? */
function sameEvidence(a: string, b: string): boolean {
  const [x, y] = [normalizeForMatch(a), normalizeForMatch(b)];
  return x.length > 0 && y.length > 0 && (x.includes(y) || y.includes(x));
}

/**
 * Is a passage the gold passage (or part of it)? Same document and page, and then: the whole page
 * counts when no text was picked; offsets overlap when both are known (a re-chunked copy still
 * slices the same page text); otherwise one text contains the other.
 */
export function passageIsGold(p: StagePassage, gold: GoldenPage): boolean {
  if (!pageMatches(p, gold)) return false;
  if (gold.quote === undefined) return true;
  if (gold.charStart !== undefined && gold.charEnd !== undefined) return p.charStart < gold.charEnd && gold.charStart < p.charStart + p.text.length;
  return sameEvidence(p.text, gold.quote);
}

const isRelevant = (p: StagePassage, golds: readonly GoldenPage[]) => golds.some((g) => passageIsGold(p, g));

/** Does a cited quote lie in the gold evidence (its page, and its text when one was picked)? */
export function quoteIsGold(c: { documentTitle: string; pdfPage: number; quote: string }, gold: GoldenPage): boolean {
  return pageMatches(c, gold) && (gold.quote === undefined || sameEvidence(c.quote, gold.quote));
}

// ─── Per question ───────────────────────────────────────────────────────────────────────────

const topK = (r: SetRecord) => r.retrieved.slice(0, r.k);

/** 1 when a gold passage is among the top k retrieved. */
export const hitAtK = (r: SetRecord): number => (topK(r).some((p) => isRelevant(p, r.golden.pages!)) ? 1 : 0);

/** 1 / the rank of the first gold passage retrieved, 0 when none is. */
export function reciprocalRank(r: SetRecord): number {
  const i = topK(r).findIndex((p) => isRelevant(p, r.golden.pages!));
  return i < 0 ? 0 : 1 / (i + 1);
}

/** Of the k passages asked for, the share that are gold. */
export const precisionAtK = (r: SetRecord): number => topK(r).filter((p) => isRelevant(p, r.golden.pages!)).length / r.k;

/** Of the gold passages, the share some top-k passage covers. */
export const recallAtK = (r: SetRecord): number => r.golden.pages!.filter((g) => topK(r).some((p) => passageIsGold(p, g))).length / r.golden.pages!.length;

/** 1 when a gold passage reached the packed context: the generator had what it needed. */
export const sufficientEvidence = (r: SetRecord): number => (r.sent.some((p) => isRelevant(p, r.golden.pages!)) ? 1 : 0);

/** An answer is correct when it gave one, a cited quote lies in the gold evidence, and the expected answer (if any) is in a claim or quote. */
export function answerCorrect(r: SetRecord): boolean {
  if (!GIVES_ANSWER.has(r.status)) return false;
  const golds = r.golden.pages!;
  const cites = r.parts.filter((p) => p.state === "supported").flatMap((p) => p.claims.flatMap((c) => c.citations));
  if (!cites.some((c) => golds.some((g) => quoteIsGold(c, g)))) return false;
  return !r.golden.answer || answerFound(r);
}

/** A citation is valid when the passage it names exists on the page it names and holds the quote verbatim (up to normalisation). */
export const citationValid = (c: JudgedCitation): boolean =>
  c.source !== null && c.source.pdfPage === c.pdfPage && c.source.documentTitle === c.documentTitle && normalizeForMatch(c.source.text).includes(normalizeForMatch(c.quote));

/**
 * Without a model, a claim is faithful when its quotes carry at least this share of its key terms
 * (content lemmas): a claim that restates its quote passes, one that adds facts of its own does not.
 */
export const FAITHFUL_TERM_SHARE = 0.8;

export function claimSupported(claim: { text: string; citations: JudgedCitation[] }): boolean {
  const terms = keyTerms(claim.text);
  if (terms.length === 0) return claim.citations.length > 0;
  const quoted = new Set(claim.citations.flatMap((c) => keyTerms(c.quote)));
  return terms.filter((t) => quoted.has(t)).length / terms.length >= FAITHFUL_TERM_SHARE;
}

// ─── The run ────────────────────────────────────────────────────────────────────────────────

export interface StageLatency {
  meanMs: number;
  p95Ms: number;
  n: number;
}

/** Mean and 95th percentile (nearest rank) of each stage's time. */
export function stageLatency(records: readonly SetRecord[]): Record<string, StageLatency> {
  const byStage = new Map<string, number[]>();
  for (const r of records) for (const [stage, ms] of Object.entries(r.timings)) byStage.set(stage, [...(byStage.get(stage) ?? []), ms]);
  return Object.fromEntries(
    [...byStage.entries()].map(([stage, values]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const p95 = sorted[Math.max(0, Math.ceil(0.95 * sorted.length) - 1)];
      return [stage, { meanMs: values.reduce((a, b) => a + b, 0) / values.length, p95Ms: p95, n: values.length }];
    }),
  );
}

export interface SetMetrics {
  n: number;
  hitAtK: Mean;
  mrr: Mean;
  precisionAtK: Mean;
  recallAtK: Mean;
  sufficientEvidenceRecall: Mean;
  citationValidity: Rate;
  /** Of the questions with gold evidence: answered, citing it, with the expected answer. */
  answerCorrectness: Rate;
  /** The model judge's verdicts (null rates when no model judged). */
  judgedCorrectness: Rate;
  /** Claims whose quotes support them: lexical share of key terms. */
  faithfulness: Rate;
  judgedFaithfulness: Rate;
  /** Of answerable questions: refused as insufficient_evidence. */
  unhelpfulRefusalRate: Rate;
  /** Of unanswerable questions: declined as insufficient_evidence. */
  abstentionRate: Rate;
  latency: Record<string, StageLatency>;
}

export function setMetrics(records: readonly SetRecord[]): SetMetrics {
  const withGold = records.filter(expectsEvidence);
  const citations = records.flatMap((r) => r.parts.flatMap((p) => p.claims.flatMap((c) => c.citations)));
  const claims = records.filter((r) => GIVES_ANSWER.has(r.status) || r.status === "conflicting_evidence").flatMap((r) => r.parts.flatMap((p) => p.claims));
  const judged = withGold.filter((r) => r.judge);
  const judgedAll = records.filter((r) => r.judge);
  const mustDecline = records.filter((r) => r.golden.expect === "insufficient_evidence");
  return {
    n: records.length,
    hitAtK: mean(withGold.map(hitAtK)),
    mrr: mean(withGold.map(reciprocalRank)),
    precisionAtK: mean(withGold.map(precisionAtK)),
    recallAtK: mean(withGold.map(recallAtK)),
    sufficientEvidenceRecall: mean(withGold.map(sufficientEvidence)),
    citationValidity: rate(citations.filter(citationValid).length, citations.length),
    answerCorrectness: rate(withGold.filter(answerCorrect).length, withGold.length),
    judgedCorrectness: rate(judged.filter((r) => r.judge!.correct).length, judged.length),
    faithfulness: rate(claims.filter(claimSupported).length, claims.length),
    judgedFaithfulness: rate(
      judgedAll.reduce((n, r) => n + r.judge!.supportedClaims, 0),
      judgedAll.reduce((n, r) => n + r.judge!.claims, 0),
    ),
    unhelpfulRefusalRate: unhelpfulRefusalRate(records),
    abstentionRate: rate(mustDecline.filter((r) => r.status === "insufficient_evidence").length, mustDecline.length),
    latency: stageLatency(records),
  };
}

/** The headline figures as plain numbers 0..1 (null when nothing was eligible): the CLI's `--json` and the charts. */
export function headline(m: SetMetrics) {
  return {
    hitAtK: m.hitAtK.value,
    mrr: m.mrr.value,
    precisionAtK: m.precisionAtK.value,
    recallAtK: m.recallAtK.value,
    sufficientEvidenceRecall: m.sufficientEvidenceRecall.value,
    citationValidity: m.citationValidity.rate,
    answerCorrectness: m.answerCorrectness.rate,
    faithfulness: m.faithfulness.rate,
    unhelpfulRefusalRate: m.unhelpfulRefusalRate.rate,
    abstentionRate: m.abstentionRate.rate,
  };
}
export type Headline = ReturnType<typeof headline>;

// ─── A/B ────────────────────────────────────────────────────────────────────────────────────

/** What each stage kept for one question, enough to say where two runs parted. */
export interface StageFingerprint {
  standalone: string;
  retrieved: string[];
  passed: string[];
  sent: string[];
  claims: string[];
  status: string;
}

export type DivergedStage = "analyze" | "retrieve" | "gate" | "pack" | "generate" | "decide";

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && new Set([...a, ...b]).size === a.length;

/** The first stage whose output differs between two runs of one question (null when none does). */
export function divergedStage(a: StageFingerprint, b: StageFingerprint): DivergedStage | null {
  if (a.standalone !== b.standalone) return "analyze";
  if (!sameList(a.retrieved, b.retrieved)) return "retrieve";
  if (!sameSet(a.passed, b.passed)) return "gate";
  if (!sameList(a.sent, b.sent)) return "pack";
  if (!sameList(a.claims, b.claims)) return "generate";
  if (a.status !== b.status) return "decide";
  return null;
}
