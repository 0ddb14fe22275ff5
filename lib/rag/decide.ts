import type { AnswerStatus, DecideState } from "./types";
import { StageError } from "./errors";

export type StageFailure = "retrieval" | "validation" | "generation" | "too_long" | "cancelled";

export class UnknownPartStateError extends StageError {
  readonly stage = "decide";
  constructor(readonly state: string) {
    super(`Unknown part evidence state: ${state}`);
    this.name = "UnknownPartStateError";
  }
}

export function isUnknownPartStateError(e: unknown): e is UnknownPartStateError {
  return e instanceof UnknownPartStateError;
}

const partStates = new Set(["supported", "missing", "conflicting", "validation_failed"]);

/** What each non-answer means and what the student can do about it: each says something different on purpose. */
export const explanations: Record<Exclude<AnswerStatus, "answered">, { message: string; nextStep: string }> = {
  partial: {
    message: "Only part of your question is answered from your notes. Each part listed here was not: the indexed notes do not cover it, or its citations did not check out.",
    nextStep: "Ask your instructor to upload the material for the missing parts, or ask about them separately and name the week or document.",
  },
  insufficient_evidence: {
    message: "I could not find supporting passages in the indexed notes.",
    nextStep: "Ask your instructor to upload the material, or name the week or document.",
  },
  conflicting_evidence: {
    message: "The indexed notes disagree on this, so no side was picked; both sources are shown with their citations.",
    nextStep: "Check with your instructor which source applies; an instructor can mark the right document as a correction.",
  },
  retrieval_error: {
    message: "The search over the notes failed, so this says nothing about what the notes contain.",
    nextStep: "Try again in a moment; if it keeps failing, tell your instructor that search is down.",
  },
  validation_failed: {
    message: "An answer was written but withheld, because its citations did not match the notes it quoted.",
    nextStep: "Ask a narrower question, or one part at a time, so each claim can be checked against a passage.",
  },
  generation_error: {
    message: "The answer model failed, timed out or returned malformed output, so nothing was answered and nothing is claimed about the notes.",
    nextStep: "Try again in a moment; if it keeps failing, tell your instructor that the model endpoint is not responding.",
  },
  question_too_long: {
    message: "This question is too long to fit the model's context window with the notes, so nothing was searched.",
    nextStep: "Shorten the question, or ask its parts one at a time.",
  },
  cancelled: {
    message: "The question was cancelled before its answer was complete; nothing was answered.",
    nextStep: "Ask it again when you are ready.",
  },
};

function status(parts: ReadonlyArray<{ state: string }>): AnswerStatus {
  const states = parts.map((p) => p.state);
  const unknown = states.find((s) => !partStates.has(s));
  if (unknown !== undefined) throw new UnknownPartStateError(unknown);
  if (states.includes("conflicting")) return "conflicting_evidence";
  if (states.every((s) => s === "missing")) return "insufficient_evidence";
  // A part whose citations failed twice is withheld; with nothing else supported the answer as a whole is.
  if (states.includes("validation_failed") && !states.includes("supported")) return "validation_failed";
  if (states.includes("missing") || states.includes("validation_failed")) return "partial";
  return "answered";
}

/**
 * decide: a stage failure outranks any evidence; otherwise conflict > nothing supported > partial > answered.
 * Every status but `answered` carries its own explanation and next step.
 */
export function decide({ parts = [], failure }: { parts?: ReadonlyArray<{ state: string }>; failure?: StageFailure }): DecideState {
  const decided: AnswerStatus =
    failure === "retrieval"
      ? "retrieval_error"
      : failure === "generation"
        ? "generation_error"
        : failure === "validation"
          ? "validation_failed"
          : failure === "too_long"
            ? "question_too_long"
            : failure === "cancelled"
              ? "cancelled"
              : status(parts);
  if (decided === "answered") return { status: decided, message: null, nextStep: null };
  return { status: decided, ...explanations[decided] };
}
