import type { AnswerCitation } from "@/lib/rag/pipeline";

/** A card as the study API sends it (dates as ISO strings). */
export interface StudyCardView {
  id: string;
  deckId: string;
  kind: "definition" | "cloze" | "question";
  front: string;
  back: string;
  answerType: string;
  distractors: string[];
  documentId: string;
  documentTitle: string;
  revisionId: string;
  revisionNumber: number;
  uploadedAt: string;
  chunkId: string;
  pdfPage: number;
  pageLabel: string | null;
  quote: string;
  charStart: number;
  charEnd: number;
  context: string;
  contextStart: number;
  status: "active" | "changed" | "retired";
  changedInRevision: number | null;
  newPassage: string | null;
  newPdfPage: number | null;
  memory: { due: string; state: number; reps: number } | null;
}

export interface DeckView {
  id: string;
  title: string;
  ownerId: string;
  visibility: "private" | "course";
  status: "generating" | "ready" | "failed";
  progress: number;
  total: number;
  error: string | null;
  /** Model-written cards dropped because their quote was not in the notes. */
  dropped: number;
  documentId: string | null;
  pageFrom: number | null;
  pageTo: number | null;
  cardCount?: number;
  changedCount?: number;
}

/** A card's citation in the shape the chat's chips and source panel read. */
export function cardCitation(c: StudyCardView): AnswerCitation {
  return {
    label: `p.${c.pdfPage}`,
    chunkId: c.chunkId,
    revisionId: c.revisionId,
    documentId: c.documentId,
    documentTitle: c.documentTitle,
    revision: c.revisionNumber,
    pdfPage: c.pdfPage,
    pageLabel: c.pageLabel,
    quote: c.quote,
    charStart: c.charStart,
    charEnd: c.charEnd,
    uploadedAt: c.uploadedAt,
    context: c.context,
    contextStart: c.contextStart,
  };
}

export const studyApi = (courseSlug: string) => `/api/courses/${encodeURIComponent(courseSlug)}`;

/** Requests carry the browser's clock; the server honours it only in tests (STUDY_TEST_CLOCK). */
export async function studyFetch<T>(url: string, init: RequestInit = {}): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set("x-study-now", String(Date.now()));
  if (init.body) headers.set("content-type", "application/json");
  const res = await fetch(url, { ...init, headers, cache: "no-store" });
  if (res.status === 401) {
    window.location.assign(`/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    throw new Error("Your session has ended. Sign in to continue.");
  }
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok) throw new Error((body as { message?: string } | null)?.message ?? "Something went wrong. Try again.");
  return body as T;
}
