"use client";

import { useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type MouseEvent, type PointerEvent } from "react";
import type { AnswerCitation } from "@/lib/rag/pipeline";
import { Excerpt } from "./excerpt";
import { formatDate, pageWords, supersededBy, useSources } from "./sources-context";

/** Citations grouped by label: one chip per passage, in the order the claim cites them. */
export function groupByLabel(citations: AnswerCitation[]): AnswerCitation[][] {
  const groups = new Map<string, AnswerCitation[]>();
  for (const c of citations) {
    const g = groups.get(c.label);
    if (g) g.push(c);
    else groups.set(c.label, [c]);
  }
  return [...groups.values()];
}

/** The chips of one claim, inline after its text. */
export function CitationChips({ claimKey, citations, name }: { claimKey: string; citations: AnswerCitation[]; name?: string }) {
  return (
    <span className="ml-1 inline-flex flex-wrap gap-1 align-baseline">
      {groupByLabel(citations).map((group) => (
        <CitationChip key={group[0].label} chipKey={`${claimKey}:${group[0].label}`} citations={group} name={name} />
      ))}
    </span>
  );
}

const canHover = () => typeof window !== "undefined" && window.matchMedia("(hover: hover) and (pointer: fine)").matches;

/**
 * A citation chip [S1]. Click, Enter or Space opens a popover with the quote inside its passage,
 * the document, page and revision; hovering with a mouse previews it. Escape closes the popover
 * and returns focus to the chip.
 */
export function CitationChip({ chipKey, citations, name }: { chipKey: string; citations: AnswerCitation[]; name?: string }) {
  const { openChip, setOpenChip, openSource, source, currentRevision } = useSources();
  const first = citations[0];
  const open = openChip === chipKey;
  const [pinned, setPinned] = useState(false);
  const chipRef = useRef<HTMLButtonElement>(null);
  const popRef = useRef<HTMLDivElement>(null);
  const focusOnOpen = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  // Until it is measured the popover is transparent, not hidden: it must be focusable at once.
  const unplaced: CSSProperties = { opacity: 0, left: 0, top: 0, pointerEvents: "none" };
  const [position, setPosition] = useState<CSSProperties>(unplaced);

  const clearTimer = () => window.clearTimeout(timer.current);
  const close = useCallback(
    (returnFocus: boolean) => {
      window.clearTimeout(timer.current);
      setOpenChip(null);
      setPinned(false);
      if (returnFocus) chipRef.current?.focus();
    },
    [setOpenChip],
  );

  // Another chip opening closes this one: forget the pinned state with it.
  useEffect(() => {
    if (!open) setPinned(false);
  }, [open]);

  const place = useCallback(() => {
    const chip = chipRef.current;
    const pop = popRef.current;
    if (!chip || !pop) return;
    const r = chip.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const width = Math.min(420, vw - 24);
    // Measure at the final width, without a height cap, before choosing a side.
    pop.style.width = `${width}px`;
    pop.style.maxHeight = "none";
    const height = pop.offsetHeight;
    const left = Math.min(Math.max(12, r.left + r.width / 2 - width / 2), vw - width - 12);
    const below = vh - 12 - (r.bottom + 8);
    const above = r.top - 8 - 12;
    let top: number;
    let maxHeight: number;
    if (height <= below || below >= above) {
      top = r.bottom + 8;
      maxHeight = Math.max(160, below);
    } else {
      maxHeight = above;
      top = r.top - 8 - Math.min(height, above);
    }
    // Written to the element too: React skips style keys whose values did not change.
    pop.style.maxHeight = `${maxHeight}px`;
    setPosition({ left, top, width, maxHeight });
  }, []);

  useLayoutEffect(() => {
    if (!open) {
      setPosition({ opacity: 0, left: 0, top: 0, pointerEvents: "none" });
      return;
    }
    place();
    if (focusOnOpen.current) {
      focusOnOpen.current = false;
      popRef.current?.focus();
    }
    const onScroll = () => place();
    window.addEventListener("resize", onScroll);
    window.addEventListener("scroll", onScroll, true);
    return () => {
      window.removeEventListener("resize", onScroll);
      window.removeEventListener("scroll", onScroll, true);
    };
  }, [open, place]);

  // Escape closes; a press anywhere else closes a pinned popover.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.stopPropagation();
      close(true);
    };
    const onDown = (e: globalThis.PointerEvent) => {
      const t = e.target as Node;
      if (chipRef.current?.contains(t) || popRef.current?.contains(t)) return;
      close(false);
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onDown);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onDown);
    };
  }, [open, close]);

  const onClick = (e: MouseEvent<HTMLButtonElement>) => {
    clearTimer();
    if (open && pinned) {
      close(false);
      return;
    }
    // Enter and Space arrive as a click with detail 0: move focus into the popover for keyboard users.
    focusOnOpen.current = e.detail === 0;
    setPinned(true);
    setOpenChip(chipKey);
    if (open && focusOnOpen.current) {
      focusOnOpen.current = false;
      popRef.current?.focus();
    }
  };

  const onEnter = (e: PointerEvent) => {
    if (e.pointerType !== "mouse" || !canHover()) return;
    clearTimer();
    if (!open) timer.current = window.setTimeout(() => setOpenChip(chipKey), 150);
  };
  const onLeave = (e: PointerEvent) => {
    if (e.pointerType !== "mouse") return;
    clearTimer();
    if (open && !pinned) timer.current = window.setTimeout(() => setOpenChip(null), 200);
    else if (!open) clearTimer();
  };

  const current = currentRevision(first.documentId);
  const newer = supersededBy(current, first.revision);
  const page = pageWords(first);
  const popId = `popover-${chipKey.replace(/[^a-zA-Z0-9_-]/g, "-")}`;
  const showing = source?.key === chipKey;
  // What a screen reader calls the chip: a source of the claim, unless it is named otherwise (the closest passage to a missing part).
  const spoken = name ?? `Source ${first.label}`;

  return (
    <span
      className="relative inline"
      onPointerEnter={onEnter}
      onPointerLeave={onLeave}
      onBlur={(e) => {
        // Tabbing out of the chip and its popover closes the popover.
        const next = e.relatedTarget as Node | null;
        if (open && next && !e.currentTarget.contains(next)) close(false);
      }}
    >
      <button
        ref={chipRef}
        type="button"
        data-testid="citation-chip"
        data-label={first.label}
        data-revision={first.revision}
        data-pdf-page={first.pdfPage}
        aria-expanded={open}
        aria-controls={open ? popId : undefined}
        aria-haspopup="dialog"
        aria-label={`${spoken}: ${first.documentTitle}, ${page.pdf}, revision ${first.revision}`}
        onClick={onClick}
        className={`relative -top-px inline-flex h-5 min-w-7 items-center justify-center gap-0.5 rounded-md px-1.5 align-middle font-mono text-[11px] font-semibold leading-none tracking-tight ring-1 ring-inset transition-colors ${
          open || showing
            ? "bg-accent-600 text-white ring-accent-600"
            : "bg-accent-50 text-accent-700 ring-accent-200 hover:bg-accent-100 hover:ring-accent-500/50"
        }`}
      >
        {first.label}
        {newer ? <span aria-hidden="true" className="size-1.5 rounded-full bg-amber-500" title="A newer revision exists" /> : null}
      </button>
      {open ? (
        <div
          ref={popRef}
          id={popId}
          role="dialog"
          aria-label={`${spoken}: ${first.documentTitle}`}
          tabIndex={-1}
          data-testid="citation-popover"
          style={{ position: "fixed", ...position }}
          className="z-40 flex flex-col overflow-hidden rounded-xl border border-line bg-surface text-left font-normal shadow-[0_12px_40px_-12px_rgba(15,23,42,0.28),0_2px_6px_rgba(15,23,42,0.06)] outline-none"
        >
          <span className="block shrink-0 border-b border-line px-4 pb-3 pt-3.5">
            <span className="flex items-baseline gap-2">
              <span className="inline-flex h-5 shrink-0 items-center rounded-md bg-accent-50 px-1.5 font-mono text-[11px] font-semibold leading-none text-accent-700 ring-1 ring-inset ring-accent-200">
                {first.label}
              </span>
              <span data-testid="popover-document" className="min-w-0 flex-1 text-[15px] font-semibold leading-snug text-ink">
                {first.documentTitle}
              </span>
            </span>
            <span data-testid="popover-meta" className="mt-1.5 flex flex-wrap items-center gap-x-1.5 gap-y-0.5 text-xs text-muted">
              <span data-testid="popover-page" className="font-medium text-ink-soft">
                {page.pdf}
              </span>
              {page.printed ? <span>({page.printed})</span> : null}
              <span aria-hidden="true">·</span>
              <span data-testid="popover-revision">revision {first.revision}</span>
              <span aria-hidden="true">·</span>
              <span>uploaded {formatDate(first.uploadedAt)}</span>
            </span>
            {newer ? (
              <span data-testid="superseded-note" className="mt-2.5 flex items-start gap-1.5 rounded-lg bg-amber-50 px-2.5 py-1.5 text-xs leading-relaxed text-amber-900 ring-1 ring-inset ring-amber-200/70">
                <svg aria-hidden="true" viewBox="0 0 16 16" className="mt-0.5 size-3.5 shrink-0" fill="currentColor">
                  <path d="M8 1.5a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13ZM7.25 4.75h1.5v4.5h-1.5v-4.5Zm0 5.75h1.5V12h-1.5v-1.5Z" />
                </svg>
                <span>
                  This answer quotes revision {first.revision}; it has since been superseded by revision {newer.number}
                  {newer.uploadedAt ? `, uploaded ${formatDate(newer.uploadedAt)}` : ""}.
                </span>
              </span>
            ) : null}
          </span>
          <span className="block min-h-0 flex-1 overflow-y-auto overscroll-contain">
            <Excerpt citations={citations} radius={220} className="block px-4 py-3.5 text-[13.5px] leading-relaxed text-ink-soft" />
          </span>
          <span className="flex shrink-0 items-center justify-between gap-3 border-t border-line bg-canvas/60 px-4 py-2.5">
            <span className="text-xs text-muted">Quoted word for word</span>
            <button
              type="button"
              data-testid="open-page"
              onClick={() => {
                openSource({ key: chipKey, citations, returnFocus: chipRef.current });
                close(false);
              }}
              className="inline-flex items-center gap-1.5 rounded-lg bg-accent-600 px-3 py-1.5 text-sm font-medium text-white shadow-sm transition-colors hover:bg-accent-700"
            >
              Open page
              <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
                <path d="M6 3.5h6.5V10M12.5 3.5 4 12" />
              </svg>
            </button>
          </span>
        </div>
      ) : null}
    </span>
  );
}
