"use client";

import { createContext, useContext } from "react";
import type { AnswerCitation } from "@/lib/rag/pipeline";

/** The current revision of a document, as the documents API reports it. */
export interface CurrentRevision {
  number: number;
  uploadedAt: string;
}

/** What a chip opens in the side panel: the citations of one passage (one label) of one answer. */
export interface SourceTarget {
  /** Unique per chip, so the panel can tell which chip opened it. */
  key: string;
  citations: AnswerCitation[];
  /** Where focus returns when the panel closes. */
  returnFocus: HTMLElement | null;
}

export interface SourcesContextValue {
  courseSlug: string;
  /** The current ready revision of a document, or null when unknown (documents not loaded yet). */
  currentRevision: (documentId: string) => CurrentRevision | null;
  /** The chip whose popover is open (one at a time). */
  openChip: string | null;
  setOpenChip: (key: string | null) => void;
  /** The source shown in the side panel. */
  source: SourceTarget | null;
  openSource: (target: SourceTarget) => void;
}

export const SourcesContext = createContext<SourcesContextValue | null>(null);

export function useSources(): SourcesContextValue {
  const value = useContext(SourcesContext);
  if (!value) throw new Error("useSources must be used inside <SourcesContext>");
  return value;
}

/** Each document's current ready revision (or its newest ready one), for "superseded by" notes; chat and study pages alike. */
export function currentRevisionMap(
  documents: ReadonlyArray<{ id: string; currentRevisionId: string | null; revisions: ReadonlyArray<{ id: string; number: number; status: string; uploadedAt: string }> }>,
): Map<string, CurrentRevision> {
  const map = new Map<string, CurrentRevision>();
  for (const d of documents) {
    const ready = d.revisions.filter((r) => r.status === "ready");
    const current = ready.find((r) => r.id === d.currentRevisionId) ?? ready.sort((a, b) => b.number - a.number)[0];
    if (current) map.set(d.id, { number: current.number, uploadedAt: current.uploadedAt });
  }
  return map;
}

/** "superseded by revision R+1" applies when the document's current revision is newer than the cited one. */
export function supersededBy(current: CurrentRevision | null, cited: number): CurrentRevision | null {
  return current && current.number > cited ? current : null;
}

export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(d);
}

/** "PDF page 5 (printed page 3)" pieces, kept apart so each can be styled. */
export function pageWords(c: Pick<AnswerCitation, "pdfPage" | "pageLabel">): { pdf: string; printed: string | null } {
  return {
    pdf: `PDF page ${c.pdfPage}`,
    printed: c.pageLabel && c.pageLabel !== String(c.pdfPage) ? `printed page ${c.pageLabel}` : null,
  };
}
