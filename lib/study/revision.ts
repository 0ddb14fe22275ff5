/**
 * The revision check: a card stays right only while its verbatim quote still occurs in the
 * current text of its document. When it does not, the passage of the new revision that most
 * resembles the old quote (by content lemmas) is offered beside it, if one is close enough.
 */
import { annotate } from "@/lib/rag/text/nlp";

export interface RevisionPage {
  pdfPage: number;
  text: string;
}

export type RevisionCheck = { changed: false } | { changed: true; newPassage: { text: string; pdfPage: number } | null };

/** Content-lemma overlap a passage needs to be offered as the quote's new version. */
const SIMILAR = 0.4;

const lemmas = (text: string) => new Set(annotate(text).tokens.filter((t) => t.content).map((t) => t.lemma));

export function checkQuote(quote: string, pages: RevisionPage[]): RevisionCheck {
  if (pages.some((p) => p.text.includes(quote))) return { changed: false };
  const old = lemmas(quote);
  let best: { text: string; pdfPage: number; score: number } | null = null;
  for (const page of pages) {
    const a = annotate(page.text);
    for (const s of a.sentences) {
      const text = page.text.slice(s.start, s.end).trim();
      const mine = lemmas(text);
      let shared = 0;
      for (const l of mine) if (old.has(l)) shared++;
      const score = shared / (old.size + mine.size - shared || 1);
      if (score >= SIMILAR && (!best || score > best.score)) best = { text, pdfPage: page.pdfPage, score };
    }
  }
  return { changed: true, newPassage: best && { text: best.text, pdfPage: best.pdfPage } };
}
