import type { Answer, AnswerClaim, AnswerPart } from "@/lib/rag/pipeline";

/** What the chat page receives from the conversations API (dates as ISO strings). */
export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: string;
}

export interface StoredMessage {
  id: string;
  conversationId: string;
  role: "user" | "assistant";
  content: string;
  status: string | null;
  answer: Answer | null;
  traceId: string | null;
  createdAt: string;
}

export type PipelineStage = "rewriting" | "searching" | "reading" | "generating" | "checking";

/** "busy": the server's queue was full; the question is sent again by itself after a wait. */
export type TurnStage = PipelineStage | "busy";

/** Progress of an answer that is still streaming. */
export interface StageProgress {
  stage: TurnStage;
  /** While busy: seconds until the question is sent again. */
  retryIn?: number;
  /** From the "retrieved" event: candidates found and those that passed the evidence gate. */
  retrieved?: { hits: number; passed: number };
  /** From the "packed" event: passages sent to the generator. */
  passages?: number;
}

/** A part as it streams: claims arrive one by one before the final answer. */
export interface StreamingPart {
  ask: string;
  state: AnswerPart["state"];
  claims: AnswerClaim[];
  /** Claims written but held because their citations failed: shown as "checking", never as text, until the retry repairs them or the answer ends. */
  held?: number;
}

/** One question and its answer in the thread. */
export interface Turn {
  /** Local key (stable across the stream and the reload of a saved exchange). */
  key: string;
  question: string;
  phase: "streaming" | "done" | "failed";
  progress: StageProgress | null;
  /** Claims received so far, indexed by part. */
  parts: StreamingPart[];
  /** The final answer, once the "status" event has arrived (or from the stored message). */
  answer: Answer | null;
  /** A transport or server failure: the question was not answered and not saved. */
  error: string | null;
  /** The failure was the server refusing for load (503 after the one automatic retry), not an error. */
  busy?: boolean;
}

export interface ThreadState {
  phase: "loading" | "ready" | "error" | "missing";
  turns: Turn[];
  error?: string;
}
