/** Decks on a real libSQL file with real PDFs through the real ingestion worker: generation, grading, the revision check, export/import. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTempDb } from "@/lib/db/temp";
import { createCourse } from "@/lib/db/queries/courses";
import { getDeckCards, getDueCards, resolveCard } from "@/lib/db/queries/study";
import { signUp } from "@/lib/auth/accounts";
import { workerDepsFromEnv } from "@/lib/ingest/deps";
import { submitUpload } from "@/lib/ingest/upload";
import { processQueuedJobs } from "@/lib/ingest/worker";
import { buildPdf } from "@/lib/pdf/build";
import { generateDeck, gradeCard, importDeck } from "./decks";
import { toAnkiTsv, toDeckJson, toExportCard } from "./export";

let handle: Awaited<ReturnType<typeof openTempDb>>;
let courseId: string;
let userId: string;

const TRELLIS = "A trellis is a wooden frame that supports climbing plants such as beans and peas.";
const OPENING = "The community garden opens its spring plots on 14 March 2025 for every member.";

async function upload(fileName: string, paragraphs: string[]) {
  const bytes = await buildPdf({ pages: [{ blocks: paragraphs.map((text) => ({ kind: "paragraph" as const, text })) }] });
  await submitUpload(handle.db, { courseId, fileName, bytes: new Uint8Array(bytes), maxBytes: 1 << 24 });
  await processQueuedJobs(handle, workerDepsFromEnv());
}

beforeAll(async () => {
  handle = await openTempDb();
  userId = (await signUp(handle.db, { email: "s@g.test", name: "S", password: "password-s" })).id;
  courseId = (await createCourse(handle.db, { title: "Garden", instructorId: userId })).id;
  await upload("garden.pdf", [TRELLIS, OPENING]);
});
afterAll(() => handle.dispose());

describe("a deck through the database", () => {
  it("is generated from the course's notes with each card's citation verbatim on its page", async () => {
    const deck = await generateDeck(handle.db, { courseId, ownerId: userId, title: "Garden", scope: {}, wait: true });
    const cards = await getDeckCards(handle.db, { deckId: deck.id, userId });
    expect(cards.map((c) => [c.kind, c.back])).toEqual([
      ["definition", TRELLIS],
      ["cloze", "14 March 2025"],
    ]);
    for (const c of cards) expect(c.context.slice(c.charStart - c.contextStart, c.charEnd - c.contextStart)).toBe(c.quote);
  });

  it("flags the card whose quote a new revision changed, leaves the other alone, and pauses it until kept", async () => {
    const deck = await generateDeck(handle.db, { courseId, ownerId: userId, title: "Before", scope: {}, wait: true });
    const now = new Date("2026-03-02T10:00:00Z");
    const [trellis] = await getDeckCards(handle.db, { deckId: deck.id, userId });
    await gradeCard(handle.db, { userId, courseId, cardId: trellis.id, memory: null, grade: "again", now });

    await upload("garden.pdf", [TRELLIS, "The community garden opens its spring plots on 21 March 2025 for every member."]);
    const after = await getDeckCards(handle.db, { deckId: deck.id, userId });
    const opening = after.find((c) => c.kind === "cloze")!;
    expect(after.find((c) => c.kind === "definition")).toMatchObject({ status: "active", changedInRevision: null });
    expect(opening).toMatchObject({ status: "changed", changedInRevision: 2, quote: OPENING, newPassage: "The community garden opens its spring plots on 21 March 2025 for every member.", newPdfPage: 1 });

    const later = new Date(now.getTime() + 3600_000);
    const due = await getDueCards(handle.db, { courseId, userId, now: later, deckId: deck.id });
    expect(due.map((c) => c.id)).toEqual([trellis.id]);
    await resolveCard(handle.db, { cardId: opening.id, action: "keep", revision: 2 });
    expect((await getDueCards(handle.db, { courseId, userId, now: later, deckId: deck.id })).map((c) => c.id)).toContain(opening.id);
  });

  it("exports TSV with the source line and round-trips its own JSON, dropping cards whose quote is not in the notes", async () => {
    const deck = await generateDeck(handle.db, { courseId, ownerId: userId, title: "Export", scope: {}, wait: true });
    const cards = (await getDeckCards(handle.db, { deckId: deck.id, userId })).map(toExportCard);
    const tsv = toAnkiTsv(cards);
    expect(tsv.split("\n")[3]).toBe(`trellis\t${TRELLIS}\tgarden — PDF page 1, revision 2`);
    const json = toDeckJson("Export", cards);
    const forged = { ...json, cards: [...json.cards, { ...json.cards[0], quote: "A trellis is made of steel." }] };
    const { imported, dropped } = await importDeck(handle.db, { courseId, ownerId: userId, json: forged });
    expect({ imported, dropped }).toEqual({ imported: cards.length, dropped: 1 });
  });
});
