import type { ChatStreamEvent } from "@/lib/chat/protocol";
import type { ConversationSummary, StoredMessage } from "./types";

/** Browser-side calls to the course's API routes. Every failure becomes an Error with a readable message. */

const base = (courseSlug: string) => `/api/courses/${encodeURIComponent(courseSlug)}`;

async function readError(res: Response, fallback: string): Promise<Error> {
  if (res.status === 401 && typeof window !== "undefined") {
    // The session ended: sign in again and come back to this very page.
    const here = window.location.pathname + window.location.search;
    window.location.assign(`/sign-in?next=${encodeURIComponent(here)}`);
    return new Error("Your session has ended. Sign in to continue.");
  }
  try {
    const body = (await res.json()) as { message?: string };
    if (body?.message) return new Error(body.message);
  } catch {
    // not JSON: fall through to the generic message
  }
  return new Error(fallback);
}

export async function listConversations(courseSlug: string, signal?: AbortSignal): Promise<ConversationSummary[]> {
  const res = await fetch(`${base(courseSlug)}/conversations`, { cache: "no-store", signal });
  if (!res.ok) throw await readError(res, "Your conversations could not be loaded.");
  const body = (await res.json()) as { conversations: ConversationSummary[] };
  return body.conversations;
}

export class NotFoundError extends Error {}

/** The server's answer queue was full (503 with Retry-After): the same question may be sent again after `retryAfter` seconds. */
export class BusyError extends Error {
  constructor(
    message: string,
    readonly retryAfter: number,
  ) {
    super(message);
  }
}

export async function getConversation(
  courseSlug: string,
  conversationId: string,
  signal?: AbortSignal,
): Promise<{ conversation: ConversationSummary; messages: StoredMessage[] }> {
  const res = await fetch(`${base(courseSlug)}/conversations/${encodeURIComponent(conversationId)}`, { cache: "no-store", signal });
  if (res.status === 404) throw new NotFoundError("This conversation no longer exists.");
  if (!res.ok) throw await readError(res, "This conversation could not be loaded.");
  return res.json();
}

export async function renameConversation(courseSlug: string, conversationId: string, title: string): Promise<void> {
  const res = await fetch(`${base(courseSlug)}/conversations/${encodeURIComponent(conversationId)}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ title }),
  });
  if (!res.ok) throw await readError(res, "The conversation could not be renamed.");
}

export async function deleteConversation(courseSlug: string, conversationId: string): Promise<void> {
  const res = await fetch(`${base(courseSlug)}/conversations/${encodeURIComponent(conversationId)}`, { method: "DELETE" });
  if (!res.ok && res.status !== 404) throw await readError(res, "The conversation could not be deleted.");
}

/** The parts of GET documents the chat needs: which revision of each document is current. */
export interface DocumentRevisions {
  id: string;
  title: string;
  currentRevisionId: string | null;
  revisions: Array<{ id: string; number: number; status: string; uploadedAt: string }>;
}

export async function listDocuments(courseSlug: string, signal?: AbortSignal): Promise<DocumentRevisions[]> {
  const res = await fetch(`${base(courseSlug)}/documents`, { cache: "no-store", signal });
  if (!res.ok) throw await readError(res, "The course documents could not be loaded.");
  const body = (await res.json()) as { documents: DocumentRevisions[] };
  return body.documents;
}

export function revisionFileUrl(courseSlug: string, revisionId: string): string {
  return `${base(courseSlug)}/revisions/${encodeURIComponent(revisionId)}/file`;
}

/**
 * Asks a question and calls `onEvent` for every line of the NDJSON stream as it arrives.
 * Resolves when the stream ends; rejects when the request fails before streaming starts.
 */
export async function streamQuestion(
  courseSlug: string,
  { conversationId, question }: { conversationId: string | null; question: string },
  /** May return a promise: the next event waits for it (the chat paces claims that arrive together). */
  onEvent: (event: ChatStreamEvent) => void | Promise<void>,
  signal?: AbortSignal,
): Promise<void> {
  const res = await fetch(`${base(courseSlug)}/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/x-ndjson" },
    body: JSON.stringify(conversationId ? { conversationId, question } : { question }),
    signal,
  });
  const retryAfter = Number(res.headers.get("retry-after"));
  if (res.status === 503 && retryAfter > 0) throw new BusyError((await readError(res, "The assistant is busy right now.")).message, retryAfter);
  if (!res.ok || !res.body) throw await readError(res, "The question could not be sent. Check your connection and try again.");

  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const handle = async (line: string) => {
    const trimmed = line.trim();
    if (!trimmed) return;
    let event: ChatStreamEvent;
    try {
      event = JSON.parse(trimmed) as ChatStreamEvent;
    } catch {
      return; // a malformed line is skipped; the final "status" or "error" decides the outcome
    }
    await onEvent(event);
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let newline = buffer.indexOf("\n");
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      await handle(line);
      newline = buffer.indexOf("\n");
    }
  }
  await handle(buffer);
}
