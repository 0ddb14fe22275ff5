/**
 * The one base class of every error a pipeline stage throws: which stage, what happened, and the
 * underlying `cause` when there is one. Abstentions are statuses, never errors.
 */
export type StageName = "extract" | "chunk" | "retrieve" | "pack" | "ground" | "generate" | "validate" | "decide";

export abstract class StageError extends Error {
  abstract readonly stage: StageName;
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
  }
}

export function isStageError(e: unknown): e is StageError {
  return e instanceof StageError;
}
