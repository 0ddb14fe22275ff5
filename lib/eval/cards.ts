import "server-only";
/**
 * Quality of the generated study cards on every corpus PDF (`npm run eval -- --cards`), with the
 * extractive default. The corpus was read while the generator was written (development data).
 *
 * - content span: the answer is an entity of the card's type found in its quote (cloze), or a
 *   definition: a span starting and ending on a word, with at least three content words;
 * - self-retrieval: the front with the blank removed, searched with the project's BM25 search
 *   over the course, finds the card's own chunk among the top 3;
 * - duplicates: pairs of cards with the same answer and near-identical content (the merge's own
 *   rule, and identical fronts);
 * - cards per page over every page of the PDF, pages without cards included.
 */
import { basename } from "node:path";
import { searchLexical } from "@/lib/db/queries/search";
import { getStudyPages } from "@/lib/db/queries/study";
import { annotate } from "@/lib/rag/text/nlp";
import { previewCards } from "@/lib/study/decks";
import { answerKey } from "@/lib/study/answer-key";
import { BLANK, type DraftCard } from "@/lib/study/generate";
import { buildEvalDb, corpusFiles } from "./run";

export interface CardQuality {
  course: string;
  pages: number;
  cards: number;
  contentSpan: number;
  selfRetrieved: number;
  duplicates: number;
  perPage: { min: number; median: number; max: number };
  millis: number;
}

/**
 * The card's answer is a whole content span, never a stopword or a fragment: for a cloze, an
 * entity of the card's type in its quote; for a definition, at least three content words that
 * neither start mid-sentence (a lowercase start of a whole quote) nor stop on a function word.
 */
export function isContentSpan(card: Pick<DraftCard, "kind" | "back" | "quote" | "answerType">): boolean {
  const a = annotate(card.back);
  const words = a.tokens.filter((t) => t.pos !== "SPACE" && t.pos !== "PUNCT");
  if (words.length === 0) return false;
  if (card.kind === "cloze") {
    const at = card.quote.indexOf(card.back);
    if (at < 0) return false;
    const q = annotate(card.quote);
    if (q.entities.some((e) => e.type === card.answerType && e.start < at + card.back.length && e.end > at)) return true;
    // Counting words ("four", "third") are numbers in the sentence whatever entity wink draws around them in a shorter text.
    const inQuote = q.tokens.filter((t) => t.start >= at && t.end <= at + card.back.length && t.pos !== "SPACE");
    return (card.answerType === "CARDINAL" || card.answerType === "ORDINAL") && inQuote.length > 0 && inQuote.every((t) => t.pos === "NUM" || t.type === "number" || t.type === "ordinal" || (t.pos === "ADJ" && /th$|^third$/i.test(t.text)));
  }
  const last = words[words.length - 1];
  const startsMidSentence = card.back === card.quote && /^\p{Ll}/u.test(card.back);
  // A sentence that ends ends; one that stops on "of" or "the" or a comma was cut off.
  const cutOff = !/[.?!]["”’)]*$/u.test(card.back.trim()) && (["DET", "ADP", "CCONJ", "SCONJ"].includes(last.pos) || /[:,;]$/.test(card.back.trim()));
  return !words.every((t) => t.stop) && a.tokens.filter((t) => t.content).length >= 3 && !startsMidSentence && !cutOff;
}

const lemmaSet = (text: string) => new Set(annotate(text).tokens.filter((t) => t.content).map((t) => t.lemma));
function similar(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  return shared / (a.size + b.size - shared || 1);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function evaluateCards(log: (line: string) => void = () => {}): Promise<CardQuality[]> {
  const db = await buildEvalDb();
  try {
    const out: CardQuality[] = [];
    for (const file of corpusFiles()) {
      const stem = basename(file).replace(/\.pdf$/i, "");
      const courseId = db.courses.get(stem)!;
      const started = performance.now();
      // The quality figures are the extractive default's, whatever model is configured.
      const { cards } = await previewCards(db.handle.db, { courseId, scope: {}, writer: null });
      const millis = performance.now() - started;
      let selfRetrieved = 0;
      for (const c of cards) {
        const query = c.front.replace(BLANK, " ");
        const { hits } = await searchLexical(db.handle.client, { courseId, terms: [query], limit: 3 });
        if (hits.some((h) => h.passage.chunkId === c.chunkId)) selfRetrieved++;
      }
      const sets = cards.map((c) => lemmaSet(`${c.front} ${c.back}`));
      let duplicates = 0;
      for (let i = 0; i < cards.length; i++) {
        for (let j = i + 1; j < cards.length; j++) {
          const sameAnswer = answerKey(cards[i].back) === answerKey(cards[j].back);
          if (cards[i].front === cards[j].front || (sameAnswer && similar(sets[i], sets[j]) >= 0.8)) duplicates++;
        }
      }
      const pageCount = (await getStudyPages(db.handle.db, { courseId })).length;
      const counts = new Map<number, number>();
      for (const c of cards) counts.set(c.pdfPage, (counts.get(c.pdfPage) ?? 0) + 1);
      const perPage = Array.from({ length: pageCount }, (_, i) => counts.get(i + 1) ?? 0);
      const row: CardQuality = {
        course: stem,
        pages: pageCount,
        cards: cards.length,
        contentSpan: cards.filter(isContentSpan).length,
        selfRetrieved,
        duplicates,
        perPage: { min: Math.min(...perPage), median: median(perPage), max: Math.max(...perPage) },
        millis,
      };
      log(`${stem}: ${row.cards} cards`);
      out.push(row);
    }
    return out;
  } finally {
    db.dispose();
  }
}
