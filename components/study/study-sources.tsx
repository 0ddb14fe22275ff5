"use client";

import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import { listDocuments, type DocumentRevisions } from "@/components/chat/api";
import { CitationChip } from "@/components/sources/citation-chip";
import { SourcePanel } from "@/components/sources/source-panel";
import { currentRevisionMap, SourcesContext, type SourcesContextValue, type SourceTarget } from "@/components/sources/sources-context";
import { cardCitation, type StudyCardView } from "./types";

/** The chat's sources context for study pages: a card's chip opens the same popover, source panel and page view. */
export function StudySources({ courseSlug, children, onDocuments }: { courseSlug: string; children: ReactNode; onDocuments?: (docs: DocumentRevisions[]) => void }) {
  const [documents, setDocuments] = useState<DocumentRevisions[]>([]);
  const [openChip, setOpenChip] = useState<string | null>(null);
  const [source, setSource] = useState<SourceTarget | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    listDocuments(courseSlug, ctl.signal)
      .then((docs) => {
        setDocuments(docs);
        onDocuments?.(docs);
      })
      .catch(() => {});
    return () => ctl.abort();
  }, [courseSlug, onDocuments]);
  const current = useMemo(() => currentRevisionMap(documents), [documents]);
  const closeSource = useCallback(() => {
    setSource((s) => {
      const back = s?.returnFocus;
      if (back?.isConnected) requestAnimationFrame(() => back.focus());
      return null;
    });
  }, []);
  const value: SourcesContextValue = useMemo(
    () => ({ courseSlug, currentRevision: (id) => current.get(id) ?? null, openChip, setOpenChip, source, openSource: setSource }),
    [courseSlug, current, openChip, source],
  );
  return (
    <SourcesContext value={value}>
      <div className="flex min-h-0 flex-1">
        <div className="min-w-0 flex-1">{children}</div>
        {source ? <SourcePanel target={source} onClose={closeSource} /> : null}
      </div>
    </SourcesContext>
  );
}

/** A card's citation chip: document, PDF page, revision, the verbatim quote; opens the page. */
export function CardChip({ card, scope }: { card: StudyCardView; scope: string }) {
  return <CitationChip chipKey={`${scope}:${card.id}`} citations={[cardCitation(card)]} />;
}
