/**
 * What the documents page shows, as the browser receives it (GET /api/courses/:course/documents):
 * dates are ISO strings. Shared by the server page and its client components.
 */
export type RevisionStatus = "queued" | "extracting" | "indexing" | "ready" | "failed";

export interface RevisionView {
  id: string;
  number: number;
  sha256: string;
  fileName: string;
  size: number;
  pageCount: number | null;
  status: RevisionStatus;
  /** Pages processed so far while extracting/indexing. */
  progress: number;
  error: string | null;
  warning: string | null;
  isCorrection: boolean;
  uploadedAt: string;
}

export interface DocumentView {
  id: string;
  title: string;
  currentRevisionId: string | null;
  /** Newest first. */
  revisions: RevisionView[];
}

export const inFlightStatuses: readonly RevisionStatus[] = ["queued", "extracting", "indexing"];

export function isInFlight(status: RevisionStatus): boolean {
  return inFlightStatuses.includes(status);
}
