import "server-only";
/**
 * Decks on the server: generation with progress (the web app and `npm run cards` share this
 * path), grading and import. The revision check run when a revision becomes current is
 * card-checks.ts, which ingestion loads without the card generator's modules.
 */
import type { Db } from "@/lib/db/client";
import { completeDeck, createDeck, failDeck, getRevisionPage, getStudyPages, insertImportedDeck, saveReview, setDeckProgress } from "@/lib/db/queries/study";
import type { Deck } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { DeckJson } from "./export";
import { answerKey, DeckBuilder, type DraftCard } from "./generate";
import { modelCardWriter, type CardWriter } from "./model-cards";
import { checkDocumentCards } from "./card-checks";
import { grades, review, type GradeName, type MemoryState } from "./schedule";

export interface DeckScope {
  documentId?: string | null;
  pageFrom?: number | null;
  pageTo?: number | null;
}

/** Pages of the scope and of the rest of the course (distractors only); a clear error when the scope is empty. */
async function scopePages(db: Db, courseId: string, scope: DeckScope) {
  const pages = await getStudyPages(db, { courseId, ...scope });
  if (pages.length === 0) throw new AppError("bad_request:deck", "Nothing to draw cards from: no indexed pages in that document or page range.");
  const inScope = new Set(pages.map((p) => `${p.revisionId}:${p.pdfPage}`));
  const rest = (await getStudyPages(db, { courseId })).filter((p) => !inScope.has(`${p.revisionId}:${p.pdfPage}`));
  return { pages, rest };
}

/** The configured card writer: a model when GENERATION_MODEL is set, else null (cards from the notes' structure). */
function cardWriterFromEnv(): CardWriter | null {
  if (!env.GENERATION_MODEL) return null;
  const config = { model: env.GENERATION_MODEL, baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY, temperature: env.GENERATION_TEMPERATURE, timeoutMs: env.GENERATION_TIMEOUT_MS, maxRetries: 2 };
  return modelCardWriter(config, { perPage: env.STUDY_CARDS_PER_PAGE });
}

/** The cards drawn, and how many a model wrote whose quote failed validation (never shown). */
export interface DrawnCards {
  cards: DraftCard[];
  dropped: number;
}

/** Draws the cards, yielding to the event loop between pages and writing progress every tenth. */
async function drawCards(db: Db, deckId: string | null, pages: Awaited<ReturnType<typeof scopePages>>, writer = cardWriterFromEnv()): Promise<DrawnCards> {
  const builder = new DeckBuilder(pages.pages, { perPage: env.STUDY_CARDS_PER_PAGE, poolPages: pages.rest });
  const written: DraftCard[] = [];
  let dropped = 0;
  const step = Math.max(1, Math.ceil(pages.pages.length / 10));
  for (const [i, page] of pages.pages.entries()) {
    if (writer) {
      const result = await writer(page);
      written.push(...result.cards);
      dropped += result.dropped;
    } else builder.addPage(page);
    if (deckId && (i + 1) % step === 0) await setDeckProgress(db, { deckId, progress: i + 1 });
    else await new Promise((r) => setImmediate(r));
  }
  return writer ? { cards: written, dropped } : { cards: builder.finish(), dropped: 0 };
}

const toRow = (c: DraftCard) => ({
  kind: c.kind,
  front: c.front,
  back: c.back,
  answerType: c.answerType,
  distractors: c.distractors,
  documentId: c.documentId,
  revisionId: c.revisionId,
  chunkId: c.chunkId,
  pdfPage: c.pdfPage,
  pageLabel: c.pageLabel,
  quote: c.quote,
  charStart: c.charStart,
  charEnd: c.charEnd,
  checkedRevision: c.revisionNumber,
});

/**
 * Creates a deck and fills it. `wait: false` (the web app) returns at once with the deck
 * "generating" and its progress in the row; the CLI waits.
 */
export async function generateDeck(
  db: Db,
  { courseId, ownerId, title, scope, wait, writer = cardWriterFromEnv() }: { courseId: string; ownerId: string; title: string; scope: DeckScope; wait: boolean; writer?: CardWriter | null },
): Promise<Deck> {
  const pages = await scopePages(db, courseId, scope);
  const deck = await createDeck(db, { courseId, ownerId, title, documentId: scope.documentId ?? null, pageFrom: scope.pageFrom ?? null, pageTo: scope.pageTo ?? null, total: pages.pages.length });
  let dropped = 0;
  const run = drawCards(db, deck.id, pages, writer)
    .then((drawn) => {
      dropped = drawn.dropped;
      return completeDeck(db, { deckId: deck.id, cards: drawn.cards.map(toRow), dropped });
    })
    .catch(async (e) => {
      console.error(`[study] generating deck ${deck.id} failed:`, e);
      await failDeck(db, { deckId: deck.id, error: "Generating the cards failed; try again." }).catch(() => {});
      throw e;
    });
  if (!wait) {
    run.catch(() => {});
    return deck;
  }
  await run;
  return { ...deck, dropped };
}

/** The cards a scope would give, without storing a deck (the CLI's default output). */
export async function previewCards(db: Db, { courseId, scope, writer }: { courseId: string; scope: DeckScope; writer?: CardWriter | null }): Promise<DrawnCards> {
  return drawCards(db, null, await scopePages(db, courseId, scope), writer === undefined ? cardWriterFromEnv() : writer);
}

export function parseGrade(raw: unknown): GradeName {
  if (typeof raw === "string" && (grades as readonly string[]).includes(raw)) return raw as GradeName;
  throw new AppError("bad_request:card", "The grade must be again, hard, good or easy.");
}

/** Grades a card for a student at `now` and stores the new FSRS state with its log line. */
export async function gradeCard(
  db: Db,
  { userId, courseId, cardId, memory, grade, now }: { userId: string; courseId: string; cardId: string; memory: MemoryState | null; grade: GradeName; now: Date },
): Promise<MemoryState> {
  const state = review(memory, grade, now);
  await saveReview(db, { userId, cardId, courseId, state, grade: grades.indexOf(grade) + 1, at: now });
  return state;
}

/** The scheduler's clock: the server's, or in tests (STUDY_TEST_CLOCK=1) the browser's faked one. */
export function studyNow(req: Request): Date {
  const header = req.headers.get("x-study-now");
  if (env.STUDY_TEST_CLOCK === "1" && header && Number.isFinite(Number(header))) return new Date(Number(header));
  return new Date();
}

/**
 * Imports a deck exported as JSON into the course, as a private deck of the importer. Each card's
 * citation is checked like a claim's: its document and revision must be in this course and its
 * quote must occur exactly at its offsets on that page. Cards that fail are dropped and counted.
 * Afterwards the revision check flags cards whose revision is no longer current and whose quote is gone.
 */
export async function importDeck(db: Db, { courseId, ownerId, json }: { courseId: string; ownerId: string; json: DeckJson }): Promise<{ deck: Deck; imported: number; dropped: number }> {
  const rows = [];
  for (const c of json.cards) {
    const page = await getRevisionPage(db, { courseId, documentTitle: c.documentTitle, revision: c.revision, pdfPage: c.pdfPage });
    if (!page || page.text.slice(c.charStart, c.charEnd) !== c.quote) continue;
    const chunk = page.chunks.find((k) => k.charStart <= c.charStart && k.charEnd >= c.charEnd);
    if (!chunk) continue;
    rows.push({
      kind: c.kind,
      front: c.front,
      back: c.back,
      answerType: c.answerType,
      distractors: c.distractors.filter((d) => answerKey(d) !== answerKey(c.back)),
      documentId: page.documentId,
      revisionId: page.revisionId,
      chunkId: chunk.chunkId,
      pdfPage: c.pdfPage,
      pageLabel: page.pageLabel,
      quote: c.quote,
      charStart: c.charStart,
      charEnd: c.charEnd,
      checkedRevision: c.revision,
    });
  }
  if (rows.length === 0) throw new AppError("bad_request:deck", "None of the deck's cards cite this course's notes: nothing was imported.");
  const deck = await insertImportedDeck(db, { courseId, ownerId, title: json.title, cards: rows });
  for (const documentId of new Set(rows.map((r) => r.documentId))) await checkDocumentCards(db, { documentId });
  return { deck, imported: rows.length, dropped: json.cards.length - rows.length };
}
