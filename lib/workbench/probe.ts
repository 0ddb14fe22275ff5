/**
 * The evidence-substitution probe's reading: one question run three times with only the context
 * changed (retrieved, picked by the instructor, none), and what the outcomes say about which
 * stage failed (seed 000: "which controlled experiment separates missing evidence from a
 * generation failure?").
 */
import type { AnswerPart, AnswerStatus, AskResult, ChatMessage, TraceRecord } from "@/lib/rag/pipeline";

export type ProbeConditionKey = "retrieved" | "oracle" | "empty";

export type ProbeVerdict = "answered" | "retrieval_miss" | "packing_loss" | "generation_failure" | "inconclusive";

export interface ProbeConclusion {
  verdict: ProbeVerdict;
  /** The conclusion in words, for the instructor. */
  summary: string;
  /** The empty context gave no answer, as it must: nothing was claimed without evidence. */
  emptyAbstained: boolean;
}

/** One condition of the probe as the page shows it. */
export interface ProbeCondition {
  key: ProbeConditionKey;
  traceId: string;
  status: AnswerStatus;
  message: string | null;
  /** The exact messages sent; null when none were (the gate let no retrieved passage through). */
  request: ChatMessage[] | null;
  /** The passages sent, in prompt order. */
  context: Array<{ label: string; documentTitle: string; pdfPage: number }>;
  parts: AnswerPart[];
}

export function probeCondition(key: ProbeConditionKey, { answer, trace }: AskResult): ProbeCondition {
  const hits = new Map(trace.retrieval?.hits.map((h) => [h.chunkId, h]) ?? []);
  return {
    key,
    traceId: trace.id,
    status: answer.status,
    message: answer.message ?? null,
    request: trace.attempts.find((a) => a.messages.length)?.messages ?? null,
    context: (trace.packing?.selected ?? []).map((s) => ({ label: s.label, documentTitle: hits.get(s.chunkId)!.documentTitle, pdfPage: hits.get(s.chunkId)!.pdfPage })),
    parts: answer.parts,
  };
}

/** How much of the question an outcome answers: all, part, none. */
const answered = (status: AnswerStatus | null) => (status === "answered" ? 2 : status === "partial" ? 1 : 0);
/** Outcomes that say something broke, not what the evidence supports. */
const failed = new Set<AnswerStatus | null>([null, "retrieval_error", "generation_error", "question_too_long", "cancelled"]);

/** Why a passage retrieval found did not reach the request, from the retrieved run's trace. */
function lossReason(trace: TraceRecord, chunkId: string): string {
  const hit = trace.retrieval!.hits.find((h) => h.chunkId === chunkId)!;
  const where = `“${hit.documentTitle}”, PDF page ${hit.pdfPage} (retrieval rank ${hit.rank})`;
  if (!trace.gate?.passed.includes(chunkId)) {
    const score = trace.gate?.scores.find((s) => s.chunkId === chunkId)?.score;
    return `${where} scored ${score ?? "—"} for answering, under the floor of ${trace.settings.minScore}, so the gate held it back`;
  }
  const decision = trace.packing?.decisions.find((d) => d.chunkId === chunkId)?.decision;
  if (decision === "over_budget") return `${where} did not fit the context budget of ${trace.settings.contextWindow} tokens`;
  if (decision === "cap_reached") return `${where} came after the cap of ${trace.settings.maxPassages} passages`;
  return `${where} was left out as a duplicate of a passage already sent`;
}

/** The three outcomes read together: which stage lost the answer, if any. */
export function concludeProbe(runs: Record<ProbeConditionKey, TraceRecord>): ProbeConclusion {
  const { retrieved, oracle, empty } = runs;
  const emptyAbstained = answered(empty.status) === 0;
  const conclusion = (verdict: ProbeVerdict, summary: string): ProbeConclusion => ({
    verdict,
    emptyAbstained,
    summary: emptyAbstained ? summary : `${summary} Warning: with no passages at all the generator still answered (${empty.status}), so its answers are not grounded in the notes.`,
  });

  const broken = (["retrieved", "oracle"] as const).find((key) => failed.has(runs[key].status));
  if (broken) {
    return conclusion("inconclusive", `The ${broken} run failed (${runs[broken].status ?? "no status"}), so the comparison says nothing about the evidence. Run the probe again.`);
  }
  if (answered(retrieved.status) === 2) {
    return conclusion("answered", "Nothing to explain: the retrieved context answers the question. Retrieval, packing and generation each did their part.");
  }
  if (answered(oracle.status) > answered(retrieved.status)) {
    const sent = new Set(retrieved.packing?.selected.map((s) => s.chunkId) ?? []);
    const found = new Set(retrieved.retrieval?.hits.map((h) => h.chunkId) ?? []);
    const lost = (oracle.retrieval?.hits ?? []).map((h) => h.chunkId).filter((id) => found.has(id) && !sent.has(id));
    if (lost.length) {
      return conclusion(
        "packing_loss",
        `Packing loss: retrieval found the evidence, but it never reached the request: ${lost.map((id) => lossReason(retrieved, id)).join("; ")}. With the passages you picked, the question is answered.`,
      );
    }
    return conclusion(
      "retrieval_miss",
      `Retrieval miss: the passages you picked answer the question, but retrieval did not bring them into its top ${retrieved.settings.k}. The notes hold the answer; the search did not find it.`,
    );
  }
  return conclusion(
    "generation_failure",
    `Generation failure: even with the passages you picked, the question is not answered (${oracle.status}). Either those passages do not hold the answer, or the generator cannot read it out of them.`,
  );
}
