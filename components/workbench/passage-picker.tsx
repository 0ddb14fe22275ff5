"use client";

import { useState, type KeyboardEvent } from "react";

export interface FoundPassage {
  chunkId: string;
  documentTitle: string;
  pdfPage: number;
  pageLabel: string | null;
  text: string;
}

/** A picked passage, with the excerpt it was shown with. */
export type PickedPassage = FoundPassage & { excerpt: string };

export const where = (p: { documentTitle: string; pdfPage: number }) => `${p.documentTitle}, PDF page ${p.pdfPage}`;

/** The searched words worth marking (short ones match everywhere). */
const words = (query: string) => [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])];
const EXCERPT_CHARS = 320;

/** The searched words where a word starts ("late" in "later", not in "calculated"). The words are letters and digits only: nothing in them is regular-expression syntax. */
const wordStarts = (searched: string[]) => new RegExp(`(?<![\\p{L}\\p{N}])(${searched.join("|")})`, "giu");

/** The part of a passage around the first searched word, so a long passage shows why it was found. */
function excerpt(text: string, searched: string[]): string {
  const first = searched.length ? text.search(wordStarts(searched)) : -1;
  const start = first < 0 ? 0 : Math.max(0, text.lastIndexOf(" ", Math.max(0, first - 60)) + 1);
  const cut = text.slice(start, start + EXCERPT_CHARS);
  return `${start > 0 ? "…" : ""}${cut}${start + EXCERPT_CHARS < text.length ? "…" : ""}`;
}

/** Text with the searched words marked, as text (never HTML). */
function Marked({ text, words: marked }: { text: string; words: string[] }) {
  if (marked.length === 0) return <>{text}</>;
  return (
    <>
      {text.split(wordStarts(marked)).map((piece, i) =>
        i % 2 === 1 ? (
          <mark key={i} className="rounded bg-amber-100 px-0.5 text-ink">
            {piece}
          </mark>
        ) : (
          piece
        ),
      )}
    </>
  );
}

/**
 * A search over the course's current passages with a Pick button on each result: the probe's
 * oracle context and a golden question's gold passages are both picked here.
 */
export function PassagePicker({ courseSlug, initialQuery, picked, onChange }: { courseSlug: string; initialQuery: string; picked: PickedPassage[]; onChange: (picked: PickedPassage[]) => void }) {
  const [query, setQuery] = useState(initialQuery);
  const [found, setFound] = useState<FoundPassage[] | null>(null);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [searched, setSearched] = useState<string[]>([]);
  const isPicked = (p: FoundPassage) => picked.some((x) => x.chunkId === p.chunkId);

  async function search() {
    if (!query.trim()) return;
    setSearchError(null);
    try {
      const res = await fetch(`/api/courses/${encodeURIComponent(courseSlug)}/passages?q=${encodeURIComponent(query)}`);
      const data = (await res.json().catch(() => null)) as { passages?: FoundPassage[]; message?: string } | null;
      if (!res.ok || !data?.passages) throw new Error(data?.message ?? "The search failed. Try again.");
      setFound(data.passages);
      setSearched(words(query));
    } catch (err) {
      setSearchError(err instanceof TypeError ? "The server could not be reached. Check your connection and try again." : (err as Error).message);
    }
  }

  // Enter searches here and never submits a form the picker sits in (a golden question's form).
  const searchOnEnter = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    void search();
  };

  const toggle = (p: FoundPassage) => onChange(isPicked(p) ? picked.filter((x) => x.chunkId !== p.chunkId) : [...picked, { ...p, excerpt: excerpt(p.text, searched) }]);

  return (
    <>
        {/* Not a <form>: the picker is used inside the golden question's form, and forms cannot nest. */}
        <div role="search" className="flex gap-2" data-testid="passage-search">
          <label htmlFor="passage-query" className="sr-only">
            Search the notes
          </label>
          <input
            id="passage-query"
            type="search"
            maxLength={200}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={searchOnEnter}
            placeholder="Words the answer would use"
            className="min-w-0 flex-1 rounded-lg border border-line-strong bg-surface px-3 py-2 text-[15px] text-ink outline-none transition focus:border-accent-500 focus:ring-2 focus:ring-accent-100"
          />
          <button type="button" onClick={() => void search()} disabled={!query.trim()} className="shrink-0 rounded-lg border border-line-strong bg-surface px-4 py-2 text-sm font-medium text-ink transition hover:bg-canvas disabled:opacity-60">
            Search
          </button>
        </div>
        {searchError ? (
          <p role="alert" className="mt-3 text-sm text-rose-700">
            {searchError}
          </p>
        ) : null}
        {found ? (
          found.length === 0 ? (
            <p className="mt-4 text-sm text-muted">No passage contains these words.</p>
          ) : (
            <ul className="mt-4 divide-y divide-line rounded-xl border border-line" data-testid="search-results">
              {found.map((p) => (
                <li key={p.chunkId} data-testid="search-result" className="flex gap-4 px-4 py-3">
                  <div className="min-w-0 flex-1">
                    <p className="text-xs text-muted">{where(p)}</p>
                    <p className="mt-1 text-sm leading-relaxed text-ink-soft">
                      <Marked text={excerpt(p.text, searched)} words={searched} />
                    </p>
                  </div>
                  <button
                    type="button"
                    onClick={() => toggle(p)}
                    aria-pressed={isPicked(p)}
                    className={`h-fit shrink-0 rounded-md px-3 py-1 text-sm font-medium ring-1 ring-inset transition ${
                      isPicked(p) ? "bg-accent-600 text-white ring-accent-600 hover:bg-accent-700" : "text-accent-700 ring-accent-200 hover:bg-accent-50"
                    }`}
                  >
                    {isPicked(p) ? "Picked" : "Pick"}
                  </button>
                </li>
              ))}
            </ul>
          )
        ) : null}
    </>
  );
}
