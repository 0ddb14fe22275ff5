/** Model-written cards through real HTTP (scripted OpenAI-compatible server), a real libSQL file and real PDFs. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedOpenAI } from "@/lib/ai/openai-server.mock";
import { signUp } from "@/lib/auth/accounts";
import { createCourse } from "@/lib/db/queries/courses";
import { getDeckCards, listDecks } from "@/lib/db/queries/study";
import { openTempDb } from "@/lib/db/temp";
import { isAppError } from "@/lib/errors";
import { workerDepsFromEnv } from "@/lib/ingest/deps";
import { submitUpload } from "@/lib/ingest/upload";
import { processQueuedJobs } from "@/lib/ingest/worker";
import { buildPdf } from "@/lib/pdf/build";
import { generateDeck, previewCards } from "./decks";
import { modelCardWriter } from "./model-cards";

const FIRST = "Compost heaps need turning every two weeks so air reaches the decaying leaves.";
const SECOND = "Rainwater barrels hold about two hundred litres for the dry summer months.";

let handle: Awaited<ReturnType<typeof openTempDb>>;
let server: Awaited<ReturnType<typeof startScriptedOpenAI>>;
let courseId: string;
let userId: string;

/** The passages of a request, by label, as the prompt fenced them. */
function passagesOf(body: Record<string, unknown>): Map<string, string> {
  const user = (body.messages as Array<{ role: string; content: string }>).find((m) => m.role === "user")!.content;
  return new Map([...user.matchAll(/<passage id="(S\d+)">\n([\s\S]*?)\n<\/passage>/g)].map((m) => [m[1], m[2]]));
}

/** Per page: one card quoting the page's own text, and one quoting words that are not in it. */
const honestAndFabricated = {
  kind: "fromRequest" as const,
  reply: (body: Record<string, unknown>) => {
    const [[label, text]] = [...passagesOf(body)];
    // The first line: the sentence itself, not the page number the PDF prints under it.
    const sentence = text.trim().split("\n")[0];
    return {
      kind: "json" as const,
      value: {
        cards: [
          { question: `What does this say: ${sentence.split(" ").slice(0, 3).join(" ")}?`, answer: sentence, evidence: { sourceId: label, quote: sentence } },
          { question: "How deep are the carrot beds?", answer: "Forty centimetres", evidence: { sourceId: label, quote: "Carrot beds are dug forty centimetres deep." } },
        ],
      },
    };
  },
};

const writer = () => modelCardWriter({ model: "card-model", baseURL: server.baseURL, apiKey: "k", temperature: 0, timeoutMs: 10_000, maxRetries: 0 }, { perPage: 4 });

beforeAll(async () => {
  handle = await openTempDb();
  server = await startScriptedOpenAI({ chat: [honestAndFabricated] });
  userId = (await signUp(handle.db, { email: "m@g.test", name: "M", password: "password-m" })).id;
  courseId = (await createCourse(handle.db, { title: "Garden", instructorId: userId })).id;
  const bytes = await buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text: FIRST }] }, { blocks: [{ kind: "paragraph", text: SECOND }] }] });
  await submitUpload(handle.db, { courseId, fileName: "compost.pdf", bytes: new Uint8Array(bytes), maxBytes: 1 << 24 });
  await processQueuedJobs(handle, workerDepsFromEnv());
});
afterAll(async () => {
  await server.close();
  handle.dispose();
});

describe("cards written by a model", () => {
  it("keeps cards whose quote is on the page, with its page and revision, and drops and counts a fabricated quote", async () => {
    server.setScript([honestAndFabricated]);
    const { cards, dropped } = await previewCards(handle.db, { courseId, scope: {}, writer: writer() });
    expect(dropped).toBe(2);
    expect(cards.map((c) => [c.kind, c.back, c.pdfPage, c.revisionNumber, c.documentTitle])).toEqual([
      ["question", FIRST, 1, 1, "compost"],
      ["question", SECOND, 2, 1, "compost"],
    ]);
    for (const c of cards) expect(c.quote).toBe(c.back);
    expect(cards.some((c) => c.quote.includes("Carrot"))).toBe(false);
    // The request was structured output through the chat endpoint.
    expect(server.chatRequests().at(-1)!.body.response_format).toMatchObject({ type: "json_schema" });
  });

  it("stores the kept cards in a deck and returns the dropped count", async () => {
    server.setScript([honestAndFabricated]);
    const deck = await generateDeck(handle.db, { courseId, ownerId: userId, title: "Model", scope: {}, wait: true, writer: writer() });
    expect(deck.dropped).toBe(2);
    // Stored with the deck, so the study page can say how many were thrown away.
    expect((await listDecks(handle.db, { courseId, userId })).find((d) => d.id === deck.id)).toMatchObject({ status: "ready", dropped: 2, cardCount: 2 });
    const stored = await getDeckCards(handle.db, { deckId: deck.id, userId });
    expect(stored.map((c) => [c.kind, c.pdfPage, c.quote])).toEqual([
      ["question", 1, FIRST],
      ["question", 2, SECOND],
    ]);
  });

  it.each([
    ["malformed output", { kind: "content" as const, content: '{"cards": [{"question": "unfinished' }],
    ["output of the wrong shape", { kind: "json" as const, value: { cards: [{ prompt: "no answer field" }] } }],
    ["an HTTP error", { kind: "status" as const, status: 500 }],
  ])("answers %s with a coded error, and the existing deck keeps its cards", async (_name, reply) => {
    server.setScript([honestAndFabricated]);
    const kept = await generateDeck(handle.db, { courseId, ownerId: userId, title: "Kept", scope: {}, wait: true, writer: writer() });
    const before = await getDeckCards(handle.db, { deckId: kept.id, userId });
    server.setScript([reply]);
    const error = await previewCards(handle.db, { courseId, scope: {}, writer: writer() }).catch((e: unknown) => e);
    expect(isAppError(error) && error.code).toBe("unavailable:deck");
    await expect(generateDeck(handle.db, { courseId, ownerId: userId, title: "Broken", scope: {}, wait: true, writer: writer() })).rejects.toMatchObject({ code: "unavailable:deck" });
    expect(await getDeckCards(handle.db, { deckId: kept.id, userId })).toEqual(before);
  });
});
