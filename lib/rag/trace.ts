import type { QuestionAnalysis } from "./analyze/analyze";
import type { ChatMessage, CitationProblem, GateState, Hit, PackState, RetrieveState, AnswerStatus, PartGap } from "./types";

export type StageName = "standalone" | "analyze" | "retrieve" | "gate" | "pack" | "ground" | "generate" | "validate" | "decide" | "gap";

export interface TraceSettings {
  k: number;
  minScore: number;
  contextWindow: number;
  outputReserve: number;
  safetyMargin: number;
  maxPassages: number;
  generator: "extractive" | "llm";
  model: string;
  temperature: number | null;
}

export interface TraceAttempt {
  attempt: number;
  messages: ChatMessage[];
  raw: string | null;
  problems: CitationProblem[];
  error: string | null;
}

export interface ClaimCheck {
  attempt: number;
  partIndex: number;
  claimIndex: number;
  /** Milliseconds from the question to the moment this claim was checked. */
  atMs: number;
  /** How long checking it took. */
  validateMs: number;
  published: boolean;
  problems: CitationProblem[];
}

/** Everything an answer was decided from: enough to say, after the fact, which stage did what. */
export interface TraceRecord {
  id: string;
  courseId: string;
  question: string;
  history: string[];
  standaloneQuery: string;
  /** The one question analysis every stage used (absent on traces written before it existed). */
  analysis?: Pick<QuestionAnalysis, "resolution" | "parts" | "context" | "searchTerms">;
  settings: TraceSettings;
  retrieval: { matchExpression: string | null; dense: boolean; hits: TraceHit[]; error: string | null } | null;
  gate: { floor: number; scores: GateState["scores"]; passed: string[] } | null;
  packing: Omit<PackState, "selected"> & { selected: Array<{ label: string; chunkId: string }> } | null;
  attempts: TraceAttempt[];
  /** A streamed answer's claims as each was checked: when, and for a held claim why. */
  claimChecks?: ClaimCheck[];
  partStates: Array<{ ask: string; state: string; gap?: PartGap }>;
  status: AnswerStatus | null;
  timings: Partial<Record<StageName, number>> & { firstClaimMs?: number; totalMs?: number };
  /** An instructor's workbench run (lib/server/workbench.ts), which no student received; absent on answers. */
  origin?: "playground" | "probe";
}

export type TraceHit = Omit<Hit, "passage"> & { chunkId: string; documentTitle: string; revision: number; pdfPage: number };

export function traceHits(state: RetrieveState): TraceHit[] {
  return state.hits.map(({ passage, ...h }) => ({
    ...h,
    chunkId: passage.chunkId,
    documentTitle: passage.documentTitle,
    revision: passage.revisionNumber,
    pdfPage: passage.pdfPage,
  }));
}

export function traceGate(state: GateState): TraceRecord["gate"] {
  return { floor: state.floor, scores: state.scores, passed: state.passed.map((h) => h.passage.chunkId) };
}

export function tracePacking(state: PackState): TraceRecord["packing"] {
  return { ...state, selected: state.selected.map((p) => ({ label: p.label, chunkId: p.chunkId })) };
}

/** Times a stage into the trace; the clock is injected so traces stay testable. */
export async function timed<T>(trace: TraceRecord, stage: StageName, fn: () => Promise<T> | T, now: () => number = performance.now.bind(performance)): Promise<T> {
  const start = now();
  try {
    return await fn();
  } finally {
    trace.timings[stage] = Math.round((now() - start) * 100) / 100;
  }
}
