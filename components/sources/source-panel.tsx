"use client";

import { useEffect, useRef, useState } from "react";
import { revisionFileUrl } from "@/components/chat/api";
import { PdfPageView } from "./pdf-page-view";
import { formatDate, pageWords, supersededBy, useSources, type SourceTarget } from "./sources-context";

/**
 * The cited page itself, drawn with pdf.js, with the quote highlighted; the student can page
 * through the revision the answer was generated against. Beside the thread on wide screens, a
 * full-screen sheet on phones.
 */
export function SourcePanel({ target, onClose }: { target: SourceTarget; onClose: () => void }) {
  const { courseSlug, currentRevision } = useSources();
  const first = target.citations[0];
  const [page, setPage] = useState(first.pdfPage);
  const [pageCount, setPageCount] = useState<number | null>(null);
  const [zoom, setZoom] = useState(1);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const url = revisionFileUrl(courseSlug, first.revisionId);
  const newer = supersededBy(currentRevision(first.documentId), first.revision);
  const onCitedPage = page === first.pdfPage;
  const words = pageWords(first);

  // A new source starts on its cited page, with focus on the panel so the keyboard follows.
  const [shownKey, setShownKey] = useState(target.key);
  if (shownKey !== target.key) {
    setShownKey(target.key);
    setPage(first.pdfPage);
    setPageCount(null);
    setZoom(1);
  }
  useEffect(() => {
    headingRef.current?.focus({ preventScroll: true });
  }, [target.key]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && panelRef.current?.contains(document.activeElement)) {
        e.preventDefault();
        onClose();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  const quotes = onCitedPage ? target.citations.map((c) => ({ quote: c.quote, context: c.context })) : [];

  return (
    <aside
      ref={panelRef}
      data-testid="source-panel"
      aria-labelledby="source-panel-title"
      className="fixed inset-0 z-50 flex flex-col bg-surface lg:static lg:inset-auto lg:z-auto lg:w-[min(46vw,600px)] lg:shrink-0 lg:border-l lg:border-line"
    >
      <header className="flex items-center gap-2 border-b border-line px-4 py-3.5 sm:px-5">
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium text-muted">Source {first.label}</p>
          <h2
            id="source-panel-title"
            ref={headingRef}
            tabIndex={-1}
            data-testid="source-title"
            className="truncate text-base font-semibold tracking-tight text-ink outline-none"
            title={first.documentTitle}
          >
            {first.documentTitle}
          </h2>
          <p className="mt-0.5 text-xs text-muted" data-testid="source-revision">
            revision {first.revision} · uploaded {formatDate(first.uploadedAt)}
            {newer ? <span className="text-amber-800"> · superseded by revision {newer.number}</span> : null}
          </p>
        </div>
        <div className="flex shrink-0 items-center rounded-lg ring-1 ring-line" role="group" aria-label="Zoom">
          <button
            type="button"
            data-testid="zoom-out"
            onClick={() => setZoom((z) => Math.max(1, z - 0.5))}
            disabled={zoom <= 1}
            aria-label="Zoom out"
            className="grid size-8 place-items-center rounded-l-lg text-ink-soft transition-colors hover:bg-canvas disabled:opacity-35"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
              <path d="M5 10h10" />
            </svg>
          </button>
          <span className="w-11 text-center text-xs tabular-nums text-muted" aria-live="polite">
            {Math.round(zoom * 100)}%
          </span>
          <button
            type="button"
            data-testid="zoom-in"
            onClick={() => setZoom((z) => Math.min(3, z + 0.5))}
            disabled={zoom >= 3}
            aria-label="Zoom in"
            className="grid size-8 place-items-center rounded-r-lg text-ink-soft transition-colors hover:bg-canvas disabled:opacity-35"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
              <path d="M5 10h10M10 5v10" />
            </svg>
          </button>
        </div>
        <button
          type="button"
          onClick={onClose}
          data-testid="close-source"
          aria-label="Close source"
          className="-mr-1 grid size-9 shrink-0 place-items-center rounded-lg text-muted transition-colors hover:bg-canvas hover:text-ink"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round">
            <path d="M5 5l10 10M15 5 5 15" />
          </svg>
        </button>
      </header>

      <div className="border-b border-line bg-amber-50/50 px-4 py-3 sm:px-5">
        <p className="text-[11px] font-semibold uppercase tracking-wide text-amber-800/80">
          Quoted on {words.pdf}
          {words.printed ? ` (${words.printed})` : ""}
        </p>
        <p data-testid="source-quote" className="mt-1 line-clamp-3 text-sm leading-relaxed text-ink">
          {target.citations.map((c, i) => (
            <span key={i}>
              {i > 0 ? " … " : null}“{c.quote}”
            </span>
          ))}
        </p>
      </div>

      <div className="min-h-0 flex-1 overflow-auto bg-stone-100/70 px-3 py-4 sm:px-5 sm:py-6" data-testid="source-scroll">
        <PdfPageView url={url} pageNumber={page} quotes={quotes} zoom={zoom} onPageCount={setPageCount} />
      </div>

      <nav aria-label="Pages" className="flex items-center justify-between gap-2 border-t border-line bg-surface px-3 py-2.5 pb-[max(0.625rem,env(safe-area-inset-bottom))] sm:px-5">
        <button
          type="button"
          data-testid="prev-page"
          onClick={() => setPage((p) => Math.max(1, p - 1))}
          disabled={page <= 1}
          className="inline-flex items-center gap-1 rounded-lg px-2.5 py-1.5 text-sm font-medium text-ink-soft transition-colors hover:bg-canvas disabled:cursor-not-allowed disabled:opacity-40"
        >
          <span aria-hidden="true">‹</span> Previous
        </button>
        <div className="flex flex-col items-center">
          <span data-testid="page-indicator" aria-live="polite" className="text-sm tabular-nums text-ink">
            Page {page}
            {pageCount ? ` of ${pageCount}` : ""}
          </span>
          {!onCitedPage ? (
            <button type="button" onClick={() => setPage(first.pdfPage)} className="text-xs font-medium text-accent-700 hover:underline">
              Back to the quoted page
            </button>
          ) : null}
        </div>
        <button
          type="button"
          data-testid="next-page"
          onClick={() => setPage((p) => (pageCount ? Math.min(pageCount, p + 1) : p + 1))}
          disabled={pageCount !== null && page >= pageCount}
          className="inline-flex items-center gap-1 rounded-lg px-2.5 py-1.5 text-sm font-medium text-ink-soft transition-colors hover:bg-canvas disabled:cursor-not-allowed disabled:opacity-40"
        >
          Next <span aria-hidden="true">›</span>
        </button>
      </nav>
    </aside>
  );
}
