/**
 * Scope terms of a document, computed once at ingestion: the words that say which course or
 * document this is rather than what any answer in it says — its title, its title line (a short
 * first line of the first page), and the words of its running headers and footers (the first or
 * last line of most pages). A question that names the course ("in STA 141B") must not pull its
 * answer to the title line. Only the edge lines count: a word the body of most pages uses
 * ("exam" in a short syllabus) is content. Lowercase words as FTS5's unicode61 splits them; no
 * lemmas, so ingestion stays cheap.
 */
import type { ExtractedPage } from "../types";

/** A running-header word stands in the first or last line of at least this share of a document's pages (with text). */
const MOST_PAGES = 0.6;
/** Header statistics need a few pages to mean anything. */
const MIN_PAGES = 3;
/** A first line this long or longer is prose, not a title line. */
const MAX_TITLE_LINE_WORDS = 12;
const MAX_TERMS = 64;

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** A title line is short and is not a sentence: a one-line notice ("The lab moves to Room 204.") is content. */
export const isTitleLine = (line: string) => words(line).length <= MAX_TITLE_LINE_WORDS && !/[.?!]["”’)]*\s*$/u.test(line);

/** One line of nothing but scope words and numbers ("CS 430 Syllabus · Fall 2025 · Page 3"): page furniture, which says which document, never an answer. */
export function isRunningLine(line: string, scope: ReadonlySet<string>): boolean {
  const ws = words(line);
  return !line.includes("\n") && ws.some((w) => /\p{L}/u.test(w)) && ws.every((w) => scope.has(w) || /^\d+$/.test(w));
}

/** A page's first and last lines with words, when short: where running headers, footers and page numbers stand (a paragraph is not a header). */
function edgeLines(text: string): string[] {
  const lines = text.split("\n").filter((l) => /[\p{L}\p{N}]/u.test(l));
  return (lines.length > 1 ? [lines[0], lines.at(-1)!] : lines).filter((l) => words(l).length <= MAX_TITLE_LINE_WORDS);
}

export function documentScope(pages: readonly ExtractedPage[], title: string): string[] {
  const out = new Set(words(title.replace(/\.(pdf)$/i, "")));
  const withText = pages.filter((p) => /[\p{L}\p{N}]/u.test(p.text));
  const firstLine = withText[0]?.text.split("\n").find((l) => /[\p{L}\p{N}]/u.test(l)) ?? "";
  if (isTitleLine(firstLine)) for (const w of words(firstLine)) out.add(w);
  if (withText.length >= MIN_PAGES) {
    const df = new Map<string, number>();
    for (const p of withText) for (const w of new Set(edgeLines(p.text).flatMap(words))) df.set(w, (df.get(w) ?? 0) + 1);
    const frequent = [...df].filter(([, n]) => n >= MOST_PAGES * withText.length).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    for (const [w] of frequent) out.add(w);
  }
  return [...out].slice(0, MAX_TERMS);
}
