import type { QuestionAnalysis } from "./analyze/analyze";
import type { ChatMessage, CitationProblem, DraftClaim, DraftPart, GenerateState, LabelledPassage, Passage } from "./types";
import { StageError } from "./errors";

export interface GenerateInput {
  /** The one analysis of the question (parts, answer types, focus, follow-up resolution). */
  analysis: QuestionAnalysis;
  /** Retrieval rank of each sent passage by chunk id (the prompt order puts the best at the edges). */
  ranks: ReadonlyMap<string, number>;
  /** The calibrated answer floor in force (AskSettings.minScore). */
  floor: number;
  passages: LabelledPassage[];
  /** Every passage retrieval returned, before the gate: the extractive answerer measures its word statistics over them, as the gate did. */
  retrieved?: readonly Passage[];
  /** The exact grounded messages (ground stage). */
  messages: ChatMessage[];
  /** On the one retry: the previous raw output and what was wrong with its citations. */
  retry?: { raw: string; problems: CitationProblem[]; heldOnly?: boolean };
  /** Aborted when the student goes away: a model call stops. */
  signal?: AbortSignal;
}

/** Both generators, extractive and LLM, behind one interface; both return the same shape. */
export interface Generator {
  kind: "extractive" | "llm";
  /** Shown to students: "extractive" or the model's name. */
  name: string;
  temperature: number | null;
  generate(input: GenerateInput): Promise<GenerateState>;
  /** Claims as they are written (a model's streamed output); the pipeline validates and publishes each at once. Without it, `generate` answers whole. */
  stream?(input: GenerateInput): AsyncGenerator<GenerateEvent, GenerateState>;
  /** A model's rewrite of a follow-up into a standalone question; without it the question analysis resolves follow-ups itself. */
  standalone?(question: string, history: string[], signal?: AbortSignal, previousAnswer?: string): Promise<string>;
}

/** The model endpoint failed, timed out or returned malformed output after its retries. */
export class GenerationError extends StageError {
  override readonly name = "GenerationError";
  readonly stage = "generate";
  constructor(message: string, cause?: unknown) {
    super(message, cause);
  }
}

export function isGenerationError(e: unknown): e is GenerationError {
  return e instanceof GenerationError;
}

/** A claim of a streamed answer, complete: the next claim or part has begun, or the output has ended. */
export interface CompletedClaim {
  partIndex: number;
  claimIndex: number;
  ask: string;
  state: DraftPart["state"];
  claim: DraftClaim;
}

export type GenerateEvent = { type: "claim" } & CompletedClaim;

/** A partial output as a streaming JSON parser yields it: any field may still be missing. */
export interface PartialOutput {
  parts?: Array<{ ask?: string; state?: string; claims?: Array<{ text?: string; evidence?: Array<{ sourceId?: string; quote?: string } | undefined> } | undefined> } | undefined>;
}

/**
 * The claims of a partial output that can no longer change: every claim followed by another claim
 * of its part, every claim of a part followed by another part, and, once `ended`, all of them. A
 * claim still being written is never returned, so nothing half-written is validated or shown.
 */
export function completedClaims(partial: PartialOutput, ended: boolean): CompletedClaim[] {
  const parts = partial.parts ?? [];
  const out: CompletedClaim[] = [];
  parts.forEach((part, partIndex) => {
    if (!part) return;
    const claims = part.claims ?? [];
    const partClosed = ended || partIndex < parts.length - 1;
    claims.forEach((claim, claimIndex) => {
      if (!claim || !(partClosed || claimIndex < claims.length - 1)) return;
      const state = part.state === "missing" || part.state === "conflicting" ? part.state : "supported";
      const evidence = (claim.evidence ?? []).filter((e): e is { sourceId?: string; quote?: string } => Boolean(e)).map((e) => ({ sourceId: e.sourceId ?? "", quote: e.quote ?? "" }));
      out.push({ partIndex, claimIndex, ask: part.ask ?? "", state, claim: { text: claim.text ?? "", evidence } });
    });
  });
  return out;
}
