import "server-only";
import { and, asc, desc, eq, gte, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import { newId } from "@/lib/ids";
import type { StudyPage } from "@/lib/study/generate";
import type { MemoryState } from "@/lib/study/schedule";
import type { Db } from "../client";
import { cards, chunks, decks, documents, pages, reviewLogs, reviews, revisions, type Card, type Deck } from "../schema";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** The current pages of a course (one document, a PDF page range), with their chunks: what a deck is drawn from. */
export async function getStudyPages(
  db: Db,
  { courseId, documentId, pageFrom, pageTo }: { courseId: string; documentId?: string | null; pageFrom?: number | null; pageTo?: number | null },
): Promise<StudyPage[]> {
  const conds = [eq(documents.courseId, courseId), isNull(documents.deletedAt)];
  if (documentId) conds.push(eq(documents.id, documentId));
  if (pageFrom != null) conds.push(gte(pages.pdfPage, pageFrom));
  if (pageTo != null) conds.push(lte(pages.pdfPage, pageTo));
  const rows = await db
    .select({
      documentId: documents.id,
      documentTitle: documents.title,
      revisionId: revisions.id,
      revisionNumber: revisions.number,
      pdfPage: pages.pdfPage,
      pageLabel: pages.pageLabel,
      text: pages.text,
    })
    .from(documents)
    .innerJoin(revisions, eq(revisions.id, documents.currentRevisionId))
    .innerJoin(pages, eq(pages.revisionId, revisions.id))
    .where(and(...conds))
    .orderBy(asc(documents.title), asc(pages.pdfPage));
  if (rows.length === 0) return [];
  const cuts = await db
    .select({ chunkId: chunks.id, revisionId: chunks.revisionId, pdfPage: chunks.pdfPage, charStart: chunks.charStart, charEnd: chunks.charEnd })
    .from(chunks)
    .where(inArray(chunks.revisionId, [...new Set(rows.map((r) => r.revisionId))]))
    .orderBy(asc(chunks.pdfPage), asc(chunks.ordinal));
  const byPage = new Map<string, StudyPage["chunks"]>();
  for (const c of cuts) {
    const key = `${c.revisionId}:${c.pdfPage}`;
    const list = byPage.get(key) ?? [];
    list.push({ chunkId: c.chunkId, charStart: c.charStart, charEnd: c.charEnd });
    byPage.set(key, list);
  }
  return rows.map((r) => ({ ...r, chunks: byPage.get(`${r.revisionId}:${r.pdfPage}`) ?? [] }));
}

export async function createDeck(
  db: Db,
  values: { courseId: string; ownerId: string; title: string; documentId: string | null; pageFrom: number | null; pageTo: number | null; total: number },
): Promise<Deck> {
  const [deck] = await db.insert(decks).values({ id: newId("dck"), ...values }).returning();
  return deck;
}

export async function setDeckProgress(db: Db, { deckId, progress }: { deckId: string; progress: number }): Promise<void> {
  await db.update(decks).set({ progress }).where(eq(decks.id, deckId));
}

export async function failDeck(db: Db, { deckId, error }: { deckId: string; error: string }): Promise<void> {
  await db.update(decks).set({ status: "failed", error }).where(eq(decks.id, deckId));
}

export type NewCard = Omit<Card, "id" | "deckId" | "ordinal" | "status" | "changedInRevision" | "newPassage" | "newPdfPage" | "createdAt">;

/** The deck's cards and its readiness, in one transaction: a deck is never seen half-filled. */
export async function completeDeck(db: Db, { deckId, cards: drafts, dropped }: { deckId: string; cards: NewCard[]; dropped: number }): Promise<void> {
  await db.transaction(async (tx) => {
    for (let i = 0; i < drafts.length; i += 100) {
      await tx.insert(cards).values(drafts.slice(i, i + 100).map((c, j) => ({ ...c, id: newId("crd"), deckId, ordinal: i + j })));
    }
    await tx.update(decks).set({ status: "ready", progress: sql`${decks.total}`, dropped }).where(eq(decks.id, deckId));
  });
}

/** Decks a member sees: the course's published decks and their own private ones. */
const visibleTo = (userId: string) => or(eq(decks.visibility, "course"), eq(decks.ownerId, userId));

export interface DeckSummary extends Deck {
  cardCount: number;
  changedCount: number;
}

export async function listDecks(db: Db, { courseId, userId }: { courseId: string; userId: string }): Promise<DeckSummary[]> {
  const rows = await db
    .select({
      deck: decks,
      cardCount: sql<number>`count(${cards.id}) FILTER (WHERE ${cards.status} != 'retired')`,
      changedCount: sql<number>`count(${cards.id}) FILTER (WHERE ${cards.status} = 'changed')`,
    })
    .from(decks)
    .leftJoin(cards, eq(cards.deckId, decks.id))
    .where(and(eq(decks.courseId, courseId), visibleTo(userId)))
    .groupBy(decks.id)
    .orderBy(desc(decks.createdAt));
  return rows.map((r) => ({ ...r.deck, cardCount: Number(r.cardCount), changedCount: Number(r.changedCount) }));
}

/** A deck this member may see, or undefined (another course's deck, or another student's private one). */
export async function getVisibleDeck(db: Db, { courseId, deckId, userId }: { courseId: string; deckId: string; userId: string }): Promise<Deck | undefined> {
  const [deck] = await db
    .select()
    .from(decks)
    .where(and(eq(decks.id, deckId), eq(decks.courseId, courseId), visibleTo(userId)));
  return deck;
}

export async function publishDeck(db: Db, { deckId, publish }: { deckId: string; publish: boolean }): Promise<void> {
  await db
    .update(decks)
    .set(publish ? { visibility: "course", publishedAt: new Date() } : { visibility: "private", publishedAt: null })
    .where(eq(decks.id, deckId));
}

export async function deleteDeck(db: Db, { deckId }: { deckId: string }): Promise<void> {
  await db.delete(decks).where(eq(decks.id, deckId));
}

/** A card with what its citation chip shows (the AnswerCitation fields) and the student's memory state. */
export interface StudyCard extends Card {
  documentTitle: string;
  revisionNumber: number;
  uploadedAt: string;
  context: string;
  contextStart: number;
  memory: MemoryState | null;
}

const cardColumns = {
  card: cards,
  documentTitle: documents.title,
  revisionNumber: revisions.number,
  uploadedAt: revisions.uploadedAt,
  context: chunks.text,
  contextStart: chunks.charStart,
  review: reviews,
};

type CardRow = { card: Card; documentTitle: string; revisionNumber: number; uploadedAt: Date; context: string | null; contextStart: number | null; review: typeof reviews.$inferSelect | null };

function toStudyCard(r: CardRow): StudyCard {
  const m = r.review;
  return {
    ...r.card,
    documentTitle: r.documentTitle,
    revisionNumber: r.revisionNumber,
    uploadedAt: r.uploadedAt.toISOString(),
    context: r.context ?? r.card.quote,
    contextStart: r.contextStart ?? r.card.charStart,
    memory: m && {
      due: m.due,
      stability: m.stability,
      difficulty: m.difficulty,
      elapsedDays: m.elapsedDays,
      scheduledDays: m.scheduledDays,
      learningSteps: m.learningSteps,
      reps: m.reps,
      lapses: m.lapses,
      state: m.state,
      lastReview: m.lastReview,
    },
  };
}

function cardQuery(db: Db, userId: string) {
  return db
    .select(cardColumns)
    .from(cards)
    .innerJoin(decks, eq(decks.id, cards.deckId))
    .innerJoin(documents, eq(documents.id, cards.documentId))
    .innerJoin(revisions, eq(revisions.id, cards.revisionId))
    .leftJoin(chunks, eq(chunks.id, cards.chunkId))
    .leftJoin(reviews, and(eq(reviews.cardId, cards.id), eq(reviews.userId, userId)));
}

export async function getDeckCards(db: Db, { deckId, userId }: { deckId: string; userId: string }): Promise<StudyCard[]> {
  const rows = await cardQuery(db, userId).where(eq(cards.deckId, deckId)).orderBy(asc(cards.ordinal));
  return rows.map(toStudyCard);
}

/**
 * The student's due queue in a course: active cards of the decks they see that were never
 * reviewed or whose due time has come, earliest first. Changed and retired cards wait.
 */
export async function getDueCards(
  db: Db,
  { courseId, userId, now, deckId, limit = 50 }: { courseId: string; userId: string; now: Date; deckId?: string; limit?: number },
): Promise<StudyCard[]> {
  const rows = await cardQuery(db, userId)
    .where(
      and(
        eq(decks.courseId, courseId),
        eq(decks.status, "ready"),
        visibleTo(userId),
        eq(cards.status, "active"),
        deckId ? eq(decks.id, deckId) : undefined,
        or(isNull(reviews.due), lte(reviews.due, now)),
      ),
    )
    .orderBy(sql`coalesce(${reviews.due}, 0)`, asc(cards.deckId), asc(cards.ordinal))
    .limit(limit);
  return rows.map(toStudyCard);
}

/** A card in a deck this member sees, with their memory state. */
export async function getVisibleCard(db: Db, { courseId, cardId, userId }: { courseId: string; cardId: string; userId: string }): Promise<(StudyCard & { deck: Deck }) | undefined> {
  const [row] = await db
    .select({ ...cardColumns, deck: decks })
    .from(cards)
    .innerJoin(decks, eq(decks.id, cards.deckId))
    .innerJoin(documents, eq(documents.id, cards.documentId))
    .innerJoin(revisions, eq(revisions.id, cards.revisionId))
    .leftJoin(chunks, eq(chunks.id, cards.chunkId))
    .leftJoin(reviews, and(eq(reviews.cardId, cards.id), eq(reviews.userId, userId)))
    .where(and(eq(cards.id, cardId), eq(decks.courseId, courseId), visibleTo(userId)));
  return row && { ...toStudyCard(row), deck: row.deck };
}

/** The new memory state and the grade's log line, in one transaction. */
export async function saveReview(
  db: Db,
  { userId, cardId, courseId, state, grade, at }: { userId: string; cardId: string; courseId: string; state: MemoryState; grade: number; at: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    const values = { userId, cardId, courseId, ...state };
    await tx.insert(reviews).values(values).onConflictDoUpdate({ target: [reviews.userId, reviews.cardId], set: state });
    await tx.insert(reviewLogs).values({ id: newId("rvl"), userId, cardId, courseId, grade, reviewedAt: at });
  });
}

export interface StudyProgress {
  /** Active cards never reviewed / being learned / in review, and due now. */
  counts: { new: number; learning: number; review: number; due: number; changed: number };
  /** Grades per day (UTC), oldest first, for the last `days` days. */
  daily: Array<{ day: string; again: number; hard: number; good: number; easy: number }>;
}

export async function getProgress(db: Db, { courseId, userId, now, days = 14 }: { courseId: string; userId: string; now: Date; days?: number }): Promise<StudyProgress> {
  const [c] = await db
    .select({
      fresh: sql<number>`count(*) FILTER (WHERE ${cards.status} = 'active' AND ${reviews.cardId} IS NULL)`,
      learning: sql<number>`count(*) FILTER (WHERE ${cards.status} = 'active' AND ${reviews.state} IN (1, 3))`,
      review: sql<number>`count(*) FILTER (WHERE ${cards.status} = 'active' AND ${reviews.state} = 2)`,
      due: sql<number>`count(*) FILTER (WHERE ${cards.status} = 'active' AND (${reviews.cardId} IS NULL OR ${reviews.due} <= ${now.getTime()}))`,
      changed: sql<number>`count(*) FILTER (WHERE ${cards.status} = 'changed')`,
    })
    .from(cards)
    .innerJoin(decks, eq(decks.id, cards.deckId))
    .leftJoin(reviews, and(eq(reviews.cardId, cards.id), eq(reviews.userId, userId)))
    .where(and(eq(decks.courseId, courseId), eq(decks.status, "ready"), visibleTo(userId)));
  const since = new Date(now.getTime() - (days - 1) * 86_400_000);
  since.setUTCHours(0, 0, 0, 0);
  const logs = await db
    .select({ day: sql<string>`strftime('%Y-%m-%d', ${reviewLogs.reviewedAt} / 1000, 'unixepoch')`, grade: reviewLogs.grade, n: sql<number>`count(*)` })
    .from(reviewLogs)
    .where(and(eq(reviewLogs.userId, userId), eq(reviewLogs.courseId, courseId), gte(reviewLogs.reviewedAt, since)))
    .groupBy(sql`1`, reviewLogs.grade);
  const names = ["again", "hard", "good", "easy"] as const;
  const daily: StudyProgress["daily"] = Array.from({ length: days }, (_, i) => ({ day: new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10), again: 0, hard: 0, good: 0, easy: 0 }));
  for (const l of logs) {
    const d = daily.find((x) => x.day === l.day);
    if (d && l.grade >= 1 && l.grade <= 4) d[names[l.grade - 1]] += Number(l.n);
  }
  return { counts: { new: Number(c.fresh), learning: Number(c.learning), review: Number(c.review), due: Number(c.due), changed: Number(c.changed) }, daily };
}

/** Keep (the card is right as it is), edit (new sides) or retire a changed or active card. */
export async function resolveCard(
  db: Db,
  { cardId, action, front, back, revision }: { cardId: string; action: "keep" | "edit" | "retire"; front?: string; back?: string; revision: number },
): Promise<void> {
  const resolved = { changedInRevision: null, newPassage: null, newPdfPage: null, checkedRevision: revision };
  if (action === "retire") await db.update(cards).set({ status: "retired" }).where(eq(cards.id, cardId));
  else await db.update(cards).set({ status: "active", ...resolved, ...(action === "edit" ? { front, back } : {}) }).where(eq(cards.id, cardId));
}

/** Active cards of a document not yet checked against this revision number. */
export async function getCardsToCheck(db: Db | Tx, { documentId, revision }: { documentId: string; revision: number }) {
  return db
    .select({ id: cards.id, quote: cards.quote, pdfPage: cards.pdfPage })
    .from(cards)
    .where(and(eq(cards.documentId, documentId), eq(cards.status, "active"), sql`${cards.checkedRevision} < ${revision}`));
}

/** The checks' outcome, in one transaction. */
export async function recordCardChecks(
  db: Db,
  { revision, unchanged, changed }: { revision: number; unchanged: string[]; changed: Array<{ cardId: string; newPassage: string | null; newPdfPage: number | null }> },
): Promise<void> {
  if (unchanged.length === 0 && changed.length === 0) return;
  await db.transaction(async (tx) => {
    if (unchanged.length) await tx.update(cards).set({ checkedRevision: revision }).where(inArray(cards.id, unchanged));
    for (const c of changed) {
      await tx
        .update(cards)
        .set({ status: "changed", changedInRevision: revision, checkedRevision: revision, newPassage: c.newPassage, newPdfPage: c.newPdfPage })
        .where(and(eq(cards.id, c.cardId), ne(cards.status, "retired")));
    }
  });
}

/** The current revision (id, number) of a document, or undefined. */
export async function getCurrentRevision(db: Db, { documentId }: { documentId: string }): Promise<{ revisionId: string; number: number } | undefined> {
  const [row] = await db
    .select({ revisionId: revisions.id, number: revisions.number })
    .from(documents)
    .innerJoin(revisions, eq(revisions.id, documents.currentRevisionId))
    .where(eq(documents.id, documentId));
  return row;
}

/** The page texts of a revision, for the revision check. */
export async function getRevisionTexts(db: Db, { revisionId }: { revisionId: string }) {
  return db.select({ pdfPage: pages.pdfPage, text: pages.text }).from(pages).where(eq(pages.revisionId, revisionId)).orderBy(asc(pages.pdfPage));
}

/** One stored page of a given revision of a course's document (by title), with its chunks: what an imported card is checked against. */
export async function getRevisionPage(
  db: Db,
  { courseId, documentTitle, revision, pdfPage }: { courseId: string; documentTitle: string; revision: number; pdfPage: number },
) {
  const [row] = await db
    .select({ documentId: documents.id, revisionId: revisions.id, text: pages.text, pageLabel: pages.pageLabel })
    .from(documents)
    .innerJoin(revisions, and(eq(revisions.documentId, documents.id), eq(revisions.number, revision)))
    .innerJoin(pages, and(eq(pages.revisionId, revisions.id), eq(pages.pdfPage, pdfPage)))
    .where(and(eq(documents.courseId, courseId), eq(documents.title, documentTitle), isNull(documents.deletedAt)));
  if (!row) return undefined;
  const cuts = await db
    .select({ chunkId: chunks.id, charStart: chunks.charStart, charEnd: chunks.charEnd })
    .from(chunks)
    .where(and(eq(chunks.revisionId, row.revisionId), eq(chunks.pdfPage, pdfPage)));
  return { ...row, chunks: cuts };
}

/** An imported deck: a private deck with its cards, ready, in one transaction. */
export async function insertImportedDeck(db: Db, { courseId, ownerId, title, cards: rows }: { courseId: string; ownerId: string; title: string; cards: NewCard[] }): Promise<Deck> {
  return db.transaction(async (tx) => {
    const [deck] = await tx.insert(decks).values({ id: newId("dck"), courseId, ownerId, title, status: "ready", total: 0 }).returning();
    for (let i = 0; i < rows.length; i += 100) {
      await tx.insert(cards).values(rows.slice(i, i + 100).map((c, j) => ({ ...c, id: newId("crd"), deckId: deck.id, ordinal: i + j })));
    }
    return deck;
  });
}
