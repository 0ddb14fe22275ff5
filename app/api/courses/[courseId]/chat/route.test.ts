import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startScriptedOpenAI } from "@/lib/ai/openai-server.mock";
import type { ChatStreamEvent } from "@/lib/chat/protocol";

/**
 * The chat route over a real database file and a real model endpoint on 127.0.0.1: an answer is
 * written in one batch once complete, and one whose client goes away leaves no conversation and no
 * message, only its trace marked cancelled.
 */
const NOTICE = "The field trip leaves from the east gate at 08:15 on Friday.";
const dir = mkdtempSync(join(tmpdir(), "chat-route-"));
let server: Awaited<ReturnType<typeof startScriptedOpenAI>>;
let route: typeof import("./route");
let handle: Awaited<ReturnType<typeof import("@/lib/db/client").getDb>>;
let schema: typeof import("@/lib/db/schema");
let cookie: string;
let courseId: string;

beforeAll(async () => {
  server = await startScriptedOpenAI();
  vi.stubEnv("DATABASE_URL", `file:${join(dir, "chat.db")}`);
  vi.stubEnv("GENERATION_MODEL", "scripted-model");
  vi.stubEnv("OPENAI_BASE_URL", server.baseURL);
  vi.stubEnv("OPENAI_API_KEY", "test");
  vi.resetModules();
  const { getDb } = await import("@/lib/db/client");
  schema = await import("@/lib/db/schema");
  const { ensureCourse } = await import("@/lib/db/queries/courses");
  const { createUser, addMembership } = await import("@/lib/db/queries/users");
  const { createSession, SESSION_COOKIE } = await import("@/lib/auth/sessions");
  const { submitUpload } = await import("@/lib/ingest/upload");
  const { processQueuedJobs } = await import("@/lib/ingest/worker");
  const { countTokens } = await import("@/lib/ai/tokenizer");
  const { buildPdf } = await import("@/lib/pdf/build");
  handle = await getDb();
  courseId = (await ensureCourse(handle.db, { slug: "trips" })).id;
  const student = await createUser(handle.db, { email: "walker@example.test", name: "Walker", passwordHash: "x" });
  await addMembership(handle.db, { userId: student.id, courseId, role: "student" });
  cookie = `${SESSION_COOKIE}=${(await createSession(handle.db, { userId: student.id })).token}`;
  const bytes = await buildPdf({ pages: [{ blocks: [{ kind: "heading", text: "Trip notice" }, { kind: "paragraph", text: NOTICE }] }] });
  await submitUpload(handle.db, { courseId, fileName: "trip.pdf", bytes, maxBytes: 1 << 24 });
  await processQueuedJobs(handle, { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 8 });
  route = await import("./route");
});

afterAll(async () => {
  await server.close();
  handle.client.close();
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const ask = (question: string, signal?: AbortSignal) =>
  route.POST(new Request(`http://127.0.0.1/api/courses/${courseId}/chat`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ question }), signal }), {
    params: Promise.resolve({ courseId }),
  });

async function readEvents(res: Response): Promise<ChatStreamEvent[]> {
  const text = await res.text();
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ChatStreamEvent);
}

const count = async (table: Parameters<typeof handle.db.$count>[0]) => handle.db.$count(table);

describe("the chat route", () => {
  it("writes a new conversation with its first answer, trace and citations in one batch, then says so", async () => {
    server.setScript([{ kind: "json", value: { parts: [{ ask: "When does the trip leave", state: "supported", claims: [{ text: "It leaves at 08:15 on Friday.", evidence: [{ sourceId: "S1", quote: NOTICE }] }] }] } }]);
    const events = await readEvents(await ask("When does the field trip leave?"));
    const types = events.map((e) => e.type);
    // The conversation is announced only once it exists: after the answer, just before "saved".
    expect(types.slice(-3)).toEqual(["status", "conversation", "saved"]);
    const status = events.find((e) => e.type === "status");
    expect(status?.type === "status" && status.answer.status).toBe("answered");
    expect(await count(schema.conversations)).toBe(1);
    expect(await count(schema.messages)).toBe(2);
    expect(await count(schema.claims)).toBe(1);
    expect(await count(schema.citations)).toBe(1);
    const [assistant] = await handle.db.select().from(schema.messages).where((await import("drizzle-orm")).eq(schema.messages.role, "assistant"));
    const [trace] = await handle.db.select().from(schema.traces);
    expect(assistant.traceId).toBe(trace.id);
  });

  it.each(["the request is aborted", "the response stream is cancelled"])("cancels an answer whose client goes away (%s): no conversation, no message, the trace says cancelled", async (how) => {
    const before = { conversations: await count(schema.conversations), messages: await count(schema.messages), traces: await count(schema.traces) };
    server.setScript([{ kind: "hang" }]);
    const asked = server.chatRequests().length;
    const gone = new AbortController();
    const res = await ask(how === "the request is aborted" ? "When does the field trip leave?" : "What time does the field trip leave on Friday?", gone.signal);
    const reader = res.body!.getReader();
    const reading = (async () => {
      while (!(await reader.read()).done);
    })().catch(() => {});
    await vi.waitFor(() => expect(server.chatRequests().length).toBe(asked + 1), { timeout: 10_000 });
    if (how === "the request is aborted") gone.abort();
    else await reader.cancel();
    await reading;
    await vi.waitFor(async () => expect(await count(schema.traces)).toBe(before.traces + 1), { timeout: 10_000 });
    expect(await count(schema.conversations)).toBe(before.conversations);
    expect(await count(schema.messages)).toBe(before.messages);
    const traces = await handle.db.select().from(schema.traces);
    expect(traces.filter((t) => t.status === "cancelled")).toHaveLength(how === "the request is aborted" ? 1 : 2);
  });
});
