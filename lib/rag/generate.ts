import type { ChatMessage, CitationProblem, GenerateState, LabelledPassage } from "./types";

export interface GenerateInput {
  question: string;
  passages: LabelledPassage[];
  /** The exact grounded messages (ground stage). */
  messages: ChatMessage[];
  /** On the one retry: the previous raw output and what was wrong with its citations. */
  retry?: { raw: string; problems: CitationProblem[] };
}

/** Both generators, extractive and LLM, behind one interface; both return the same shape. */
export interface Generator {
  kind: "extractive" | "llm";
  /** Shown to students: "extractive" or the model's name. */
  name: string;
  temperature: number | null;
  generate(input: GenerateInput): Promise<GenerateState>;
  /** A standalone question for retrieval from a follow-up and its history. */
  standalone(question: string, history: string[]): Promise<string>;
}

/** The model endpoint failed, timed out or returned malformed output after its retries. */
export class GenerationError extends Error {
  override readonly name = "GenerationError";
  constructor(
    message: string,
    readonly cause?: unknown,
  ) {
    super(message);
  }
}

export function isGenerationError(e: unknown): e is GenerationError {
  return e instanceof GenerationError;
}
