import type { QuestionAnalysis } from "./analyze/analyze";
import type { ChatMessage, CitationProblem, GenerateState, LabelledPassage } from "./types";
import { StageError } from "./errors";

export interface GenerateInput {
  /** The one analysis of the question (parts, answer types, focus, follow-up resolution). */
  analysis: QuestionAnalysis;
  /** Retrieval rank of each sent passage by chunk id (the prompt order puts the best at the edges). */
  ranks: ReadonlyMap<string, number>;
  /** The calibrated answer floor in force (AskSettings.minScore). */
  floor: number;
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
  /** A model's rewrite of a follow-up into a standalone question; without it the question analysis resolves follow-ups itself. */
  standalone?(question: string, history: string[]): Promise<string>;
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
