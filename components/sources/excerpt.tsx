import type { ReactNode } from "react";
import type { AnswerCitation } from "@/lib/rag/pipeline";

type Span = { start: number; end: number };

/** Where each quote sits inside the passage: by its stored offsets, or by searching when they do not line up. */
export function locateQuotes(citations: Pick<AnswerCitation, "context" | "contextStart" | "quote" | "charStart" | "charEnd">[]): Span[] {
  const spans: Span[] = [];
  for (const c of citations) {
    const start = c.charStart - c.contextStart;
    const end = c.charEnd - c.contextStart;
    if (start >= 0 && end <= c.context.length && c.context.slice(start, end) === c.quote) {
      spans.push({ start, end });
      continue;
    }
    const found = c.context.indexOf(c.quote);
    if (found !== -1) spans.push({ start: found, end: found + c.quote.length });
  }
  spans.sort((a, b) => a.start - b.start);
  // Merge overlapping spans so each character is marked once.
  const merged: Span[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

/** Cuts `text` to about `radius` characters either side of [from, to), at word boundaries. */
function excerptWindow(text: string, from: number, to: number, radius: number): { start: number; end: number } {
  let start = Math.max(0, from - radius);
  let end = Math.min(text.length, to + radius);
  if (start > 0) {
    // Begin at the first line start inside the window, else at a word.
    const line = text.indexOf("\n", start);
    if (line !== -1 && line < from) start = line + 1;
    else {
      const space = text.indexOf(" ", start);
      if (space !== -1 && space < from) start = space + 1;
    }
  }
  if (end < text.length) {
    // End at the last line end inside the window, else at a word.
    const line = text.lastIndexOf("\n", end);
    if (line >= to) end = line;
    else {
      const space = text.lastIndexOf(" ", end);
      if (space >= to) end = space;
    }
  }
  while (start < from && /\s/.test(text[start])) start++;
  while (end > to && /\s/.test(text[end - 1])) end--;
  return { start, end };
}

/**
 * The quoted words highlighted inside their surrounding passage. Plain text only: the passage is
 * rendered as React text nodes, never as HTML.
 */
export function Excerpt({
  citations,
  radius = 260,
  className = "",
}: {
  citations: Pick<AnswerCitation, "context" | "contextStart" | "quote" | "charStart" | "charEnd">[];
  radius?: number;
  className?: string;
}) {
  const context = citations[0]?.context ?? "";
  const spans = locateQuotes(citations);
  if (spans.length === 0) {
    // The offsets did not resolve inside the passage: show the quotes themselves.
    return (
      <blockquote className={`whitespace-pre-line ${className}`}>
        {citations.map((c, i) => (
          <mark key={i} data-testid="excerpt-quote" className="rounded-sm bg-amber-100 px-0.5 text-ink box-decoration-clone">
            {c.quote}
          </mark>
        ))}
      </blockquote>
    );
  }
  const win = excerptWindow(context, spans[0].start, spans[spans.length - 1].end, radius);
  const nodes: ReactNode[] = [];
  let at = win.start;
  spans.forEach((s, i) => {
    if (s.start > at) nodes.push(<span key={`t${i}`}>{context.slice(at, s.start)}</span>);
    // One mark per line, so blank lines between quoted paragraphs are not painted.
    context
      .slice(s.start, s.end)
      .split(/(\n+)/)
      .forEach((piece, j) => {
        if (!piece) return;
        nodes.push(
          /^\n+$/.test(piece) ? (
            <span key={`q${i}-${j}`}>{piece}</span>
          ) : (
            <mark key={`q${i}-${j}`} data-testid="excerpt-quote" className="rounded-sm bg-amber-100 px-0.5 font-medium text-ink box-decoration-clone">
              {piece}
            </mark>
          ),
        );
      });
    at = s.end;
  });
  if (win.end > at) nodes.push(<span key="tail">{context.slice(at, win.end)}</span>);
  return (
    <blockquote data-testid="excerpt" className={`whitespace-pre-line ${className}`}>
      {win.start > 0 ? <span aria-hidden="true">… </span> : null}
      {nodes}
      {win.end < context.length ? <span aria-hidden="true"> …</span> : null}
    </blockquote>
  );
}
