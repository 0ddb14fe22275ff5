import type { PipelineEvent } from "@/lib/rag/pipeline";

/** Shared by the chat route and the chat UI. */
export const MAX_QUESTION_CHARS = 2000;

/** One line of the chat route's NDJSON stream. */
export type ChatStreamEvent =
  | PipelineEvent
  | { type: "conversation"; conversationId: string; title: string }
  | { type: "saved"; messageId: string }
  | { type: "error"; message: string };
