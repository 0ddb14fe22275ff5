"use client";

import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { PDFPageProxy, RenderTask } from "pdfjs-dist";
import type { TextItem } from "pdfjs-dist/types/src/display/api";
import { loadPdfDocument, loadPdfjs } from "./pdf";
import { locateInItems } from "./text-match";

export interface QuoteToHighlight {
  quote: string;
  /** The passage the quote came from: picks the right occurrence when a quote repeats on a page. */
  context?: string;
}

interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

type ViewState =
  | { phase: "loading" }
  | { phase: "error"; message: string }
  | { phase: "ready"; width: number; height: number; highlights: Rect[]; quoteFound: boolean | null };

let measureContext: CanvasRenderingContext2D | null = null;

/** Share of an item's width taken by str.slice(0, n): measured, since glyph widths differ. */
function widthShare(str: string, n: number): number {
  if (n <= 0) return 0;
  if (n >= str.length) return 1;
  measureContext ??= document.createElement("canvas").getContext("2d");
  if (!measureContext) return n / str.length;
  measureContext.font = "100px Helvetica, Arial, sans-serif";
  const full = measureContext.measureText(str).width;
  return full > 0 ? measureContext.measureText(str.slice(0, n)).width / full : n / str.length;
}

/**
 * One page of a PDF revision drawn with pdf.js on a canvas, fitted to the available width, with
 * the quoted span highlighted: the quote is located among the page's text items and a rectangle
 * is drawn over the part of each item that belongs to it.
 */
export function PdfPageView({
  url,
  pageNumber,
  quotes,
  zoom = 1,
  onPageCount,
}: {
  url: string;
  pageNumber: number;
  /** 1 fits the page to the available width; larger values magnify it (the frame scrolls). */
  zoom?: number;
  /** Highlighted on this page; empty for pages the citation is not on. */
  quotes: QuoteToHighlight[];
  onPageCount?: (count: number) => void;
}) {
  const frameRef = useRef<HTMLDivElement>(null);
  const canvasHostRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [state, setState] = useState<ViewState>({ phase: "loading" });
  const [attempt, setAttempt] = useState(0);
  const onPageCountRef = useRef(onPageCount);
  useLayoutEffect(() => {
    onPageCountRef.current = onPageCount;
  });
  const quotesKey = JSON.stringify(quotes);

  // Follow the available width (the side panel, or the whole screen on a phone).
  useLayoutEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const update = () => setWidth(Math.floor(frame.clientWidth));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(frame);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (width <= 0) return;
    let cancelled = false;
    let task: RenderTask | null = null;
    let page: PDFPageProxy | null = null;
    const run = async () => {
      setState((s) => (s.phase === "ready" ? { ...s, highlights: [], quoteFound: null } : { phase: "loading" }));
      try {
        const [doc, pdfjs] = await Promise.all([loadPdfDocument(url), loadPdfjs()]);
        if (cancelled) return;
        onPageCountRef.current?.(doc.numPages);
        page = await doc.getPage(Math.min(Math.max(1, pageNumber), doc.numPages));
        if (cancelled) return;
        const base = page.getViewport({ scale: 1 });
        const viewport = page.getViewport({ scale: (width * zoom) / base.width });
        const ratio = Math.min(window.devicePixelRatio || 1, 3);

        // A fresh canvas for every render: pdf.js refuses to draw twice on one canvas at once.
        const canvas = document.createElement("canvas");
        canvas.width = Math.floor(viewport.width * ratio);
        canvas.height = Math.floor(viewport.height * ratio);
        canvas.style.width = `${viewport.width}px`;
        canvas.style.height = `${viewport.height}px`;
        canvas.style.display = "block";
        canvas.dataset.testid = "pdf-page-canvas";
        canvas.dataset.page = String(pageNumber);
        canvas.setAttribute("role", "img");
        canvas.setAttribute("aria-label", `PDF page ${pageNumber}`);
        task = page.render({ canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
        await task.promise;
        if (cancelled) return;
        canvas.dataset.rendered = "true";
        canvasHostRef.current?.replaceChildren(canvas);

        let highlights: Rect[] = [];
        let quoteFound: boolean | null = null;
        const wanted: QuoteToHighlight[] = JSON.parse(quotesKey);
        if (wanted.length) {
          const content = await page.getTextContent();
          if (cancelled) return;
          const items = content.items.filter((i): i is TextItem => "str" in i);
          const strings = items.map((i) => i.str);
          quoteFound = false;
          for (const q of wanted) {
            const ranges = locateInItems(strings, q.quote, q.context);
            if (!ranges) continue;
            quoteFound = true;
            for (const r of ranges) {
              const item = items[r.item];
              const tx = pdfjs.Util.transform(viewport.transform, item.transform);
              const fontHeight = Math.hypot(tx[2], tx[3]);
              const itemWidth = item.width * viewport.scale;
              const from = widthShare(item.str, r.start);
              const to = widthShare(item.str, r.end);
              highlights.push({
                left: tx[4] + itemWidth * from - 1,
                top: tx[5] - fontHeight * 0.92,
                width: Math.max(2, itemWidth * (to - from) + 2),
                height: fontHeight * 1.18,
              });
            }
          }
          highlights = highlights.filter((h) => Number.isFinite(h.left + h.top + h.width + h.height));
        }
        setState({ phase: "ready", width: viewport.width, height: viewport.height, highlights, quoteFound });
      } catch (e) {
        if (cancelled || (e as Error)?.name === "RenderingCancelledException") return;
        setState({ phase: "error", message: (e as Error)?.message || "This page could not be drawn." });
      }
    };
    void run();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [url, pageNumber, width, zoom, quotesKey, attempt]);

  // Bring the first highlight into view once the page is drawn.
  const firstHighlight = useRef<HTMLDivElement>(null);
  const ready = state.phase === "ready";
  const highlightCount = ready ? state.highlights.length : 0;
  useEffect(() => {
    if (highlightCount > 0) firstHighlight.current?.scrollIntoView({ block: "center", inline: "center", behavior: "instant" as ScrollBehavior });
  }, [highlightCount, pageNumber, zoom]);

  return (
    <div ref={frameRef} className="w-full">
      <div
        className="relative mx-auto shrink-0 overflow-hidden rounded-md bg-white shadow-[0_1px_3px_rgba(0,0,0,0.08),0_8px_24px_-12px_rgba(0,0,0,0.18)] ring-1 ring-black/5"
        style={ready ? { width: state.width, height: state.height } : { width: "100%", aspectRatio: "612 / 792" }}
        data-testid="pdf-page"
        data-state={state.phase}
      >
        <div ref={canvasHostRef} className={ready ? "" : "hidden"} />
        {ready
          ? state.highlights.map((h, i) => (
              <div
                key={i}
                ref={i === 0 ? firstHighlight : undefined}
                data-testid="highlight"
                aria-hidden="true"
                className="pointer-events-none absolute rounded-[3px] bg-amber-300/45 mix-blend-multiply ring-1 ring-amber-400/50"
                style={{ left: h.left, top: h.top, width: h.width, height: h.height }}
              />
            ))
          : null}
        {state.phase === "loading" ? (
          <div className="absolute inset-0 flex flex-col gap-3 p-[9%]" aria-label="Loading page" role="status">
            <div className="h-4 w-2/3 animate-pulse rounded bg-stone-100" />
            {Array.from({ length: 9 }, (_, i) => (
              <div key={i} className="h-2.5 animate-pulse rounded bg-stone-100" style={{ width: `${[96, 92, 98, 88, 94, 60, 97, 90, 72][i]}%` }} />
            ))}
          </div>
        ) : null}
        {state.phase === "error" ? (
          <div role="alert" className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-8 text-center">
            <p className="text-sm font-medium text-ink">This page could not be shown</p>
            <p className="text-sm text-muted">{state.message}</p>
            <button
              type="button"
              onClick={() => setAttempt((n) => n + 1)}
              className="rounded-lg border border-line-strong bg-surface px-3 py-1.5 text-sm font-medium text-ink hover:bg-canvas"
            >
              Try again
            </button>
          </div>
        ) : null}
      </div>
      {ready && state.quoteFound === false ? (
        <p data-testid="highlight-missing" className="mx-auto mt-3 max-w-prose text-center text-xs text-muted">
          The quoted words could not be located precisely on this page; the quote is shown above.
        </p>
      ) : null}
    </div>
  );
}
