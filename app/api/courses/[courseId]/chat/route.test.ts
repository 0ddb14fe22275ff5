import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startScriptedOpenAI, type ScriptedReply } from "@/lib/ai/openai-server.mock";
import type { ChatStreamEvent } from "@/lib/chat/protocol";
import type { TraceRecord } from "@/lib/rag/pipeline";

/**
 * The chat route over a real database file and a real model endpoint on 127.0.0.1: an answer is
 * written in one batch once complete, and one whose client goes away leaves no conversation and no
 * message, only its trace marked cancelled.
 */
const NOTICE = "The field trip leaves from the east gate at 08:15 on Friday.";
const LEADER = "Trip leader: Dr. Sunniva Halvorsen-Adeyemi.";
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
  const bytes = await buildPdf({ pages: [{ blocks: [{ kind: "heading", text: "Trip notice" }, { kind: "paragraph", text: NOTICE }, { kind: "paragraph", text: LEADER }] }] });
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

const ask = (question: string, signal?: AbortSignal, conversationId?: string) =>
  route.POST(new Request(`http://127.0.0.1/api/courses/${courseId}/chat`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: JSON.stringify({ question, conversationId }), signal }), {
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

  it("gives the model's follow-up rewrite the previous answer, so that 'she' can be the person it named", async () => {
    server.setScript([{ kind: "json", value: { parts: [{ ask: "Who leads the trip", state: "supported", claims: [{ text: "Dr. Sunniva Halvorsen-Adeyemi leads it.", evidence: [{ sourceId: "S1", quote: LEADER }] }] }] } }]);
    const first = await readEvents(await ask("Who leads the field trip?"));
    const conversation = first.find((e) => e.type === "conversation");
    expect(conversation?.type).toBe("conversation");
    const asked = server.chatRequests().length;
    server.setScript([
      { kind: "content", content: "Where does Dr. Sunniva Halvorsen-Adeyemi meet the group?" },
      { kind: "json", value: { parts: [{ ask: "Where does she meet the group", state: "supported", claims: [{ text: "At the east gate.", evidence: [{ sourceId: "S1", quote: "from the east gate" }] }] }] } },
    ]);
    const events = await readEvents(await ask("Where does she meet the group?", undefined, conversation?.type === "conversation" ? conversation.conversationId : undefined));
    const rewrite = JSON.stringify(server.chatRequests()[asked].body);
    expect(rewrite).toContain("Last answer: Dr. Sunniva Halvorsen-Adeyemi leads it.");
    const status = events.find((e) => e.type === "status");
    expect(status?.type === "status" && status.answer.status).toBe("answered");
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

  describe("a streamed model answer", () => {
    const EAST = "The field trip leaves from the east gate";
    const TIME = "at 08:15 on Friday";
    const claim = (text: string, sourceId: string, quote: string) => ({ text, evidence: [{ sourceId, quote }] });
    const gate = claim("It leaves from the east gate.", "S1", EAST);
    const time = claim("It leaves at 08:15 on Friday.", "S1", TIME);
    const trip = claim("The trip is a field trip.", "S1", "The field trip");
    const invented = claim("Buses wait at the gate.", "S9", EAST);
    const repaired = claim("Buses wait at the gate.", "S1", EAST);
    const part = (ask: string, claims: unknown[]) => ({ ask, state: "supported", claims });
    const stream = (parts: unknown[], more: Partial<Extract<ScriptedReply, { kind: "stream" }>> = {}): ScriptedReply => ({ kind: "stream", value: { parts }, chunkChars: 16, delayMs: 10, ...more });

    /** Reads the NDJSON as it arrives, noting the server's state when each event is received. */
    async function readLive(res: Response, onEvent?: (e: ChatStreamEvent) => void) {
      const seen: Array<{ event: ChatStreamEvent; at: number; chunksSent: number; finished: boolean }> = [];
      const log = () => server.streams[server.streams.length - 1];
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += value;
        const lines = buffer.split("\n");
        buffer = lines.pop()!;
        for (const line of lines.filter(Boolean)) {
          const event = JSON.parse(line) as ChatStreamEvent;
          seen.push({ event, at: performance.now(), chunksSent: log()?.chunkTimes.length ?? 0, finished: log()?.finished ?? false });
          onEvent?.(event);
        }
      }
      return seen;
    }
    const claimTexts = (seen: Array<{ event: ChatStreamEvent }>) => seen.flatMap(({ event }) => (event.type === "claim" ? [event.claim.text] : []));
    const finalAnswer = (seen: Array<{ event: ChatStreamEvent }>) => {
      const status = seen.find(({ event }) => event.type === "status")?.event;
      if (status?.type !== "status") throw new Error("no status event");
      return status.answer;
    };

    it("shows the first validated claim before the model has sent its last chunk, ignoring its reasoning", async () => {
      server.setScript([stream([part("When does the trip leave", [gate, time, trip])], { reasoning: ["Let me think about the gate", " and the hour."] })]);
      const seen = await readLive(await ask("From where and when does the field trip leave?"));
      const log = server.streams[server.streams.length - 1];
      const first = seen.find(({ event }) => event.type === "claim")!;
      // The server's own record: when the first claim reached the client, the model was still writing.
      expect(first.finished).toBe(false);
      expect(first.chunksSent).toBeLessThan(log.chunkTimes.length);
      expect(first.at).toBeLessThan(log.chunkTimes[log.chunkTimes.length - 1]);
      expect(claimTexts(seen)).toEqual([gate.text, time.text, trip.text]);
      const answer = finalAnswer(seen);
      expect(answer.status).toBe("answered");
      const [stored] = await handle.db.select().from(schema.traces).where((await import("drizzle-orm")).eq(schema.traces.id, answer.traceId));
      const trace = stored.data as TraceRecord;
      expect(trace.attempts[0].raw).not.toContain("Let me think");
      expect(trace.timings.firstClaimMs).toBeGreaterThan(0);
      expect(trace.timings.firstClaimMs!).toBeLessThan(trace.timings.totalMs!);
      expect(trace.claimChecks!.map((c) => c.published)).toEqual([true, true, true]);
    });

    it("holds a claim with an invented source id while its neighbours show, and publishes it once the retry repairs it", async () => {
      server.setScript([stream([part("Where does the trip leave", [gate, invented, time])]), stream([part("Where does the trip leave", [repaired])])]);
      const asked = server.chatRequests().length;
      const seen = await readLive(await ask("Where does the field trip leave from?"));
      const types = seen.map(({ event }) => event.type);
      const heldAt = types.indexOf("held");
      const claimsAt = types.flatMap((t, i) => (t === "claim" ? [i] : []));
      // gate, (held), time, then the repaired claim after the retry.
      expect(claimsAt).toHaveLength(3);
      expect(claimsAt[0]).toBeLessThan(heldAt);
      expect(heldAt).toBeLessThan(claimsAt[1]);
      expect(claimTexts(seen)).toEqual([gate.text, time.text, repaired.text]);
      const repairedEvent = seen[claimsAt[2]].event;
      expect(repairedEvent.type === "claim" && repairedEvent.repaired).toBe(true);
      // Nothing of the held claim was sent before it passed.
      expect(JSON.stringify(seen.slice(0, claimsAt[2]).map((s) => s.event))).not.toContain(invented.text);
      const answer = finalAnswer(seen);
      expect(answer.status).toBe("answered");
      expect(answer.parts[0].claims.map((c) => c.citations[0].label)).toEqual(["S1", "S1", "S1"]);
      // The retry asked for the held claim only.
      const retry = JSON.stringify(server.chatRequests()[asked + 1].body);
      expect(retry).toContain("Your other claims were accepted");
      expect(retry).toContain("unknown_source_id");
      const [stored] = await handle.db.select().from(schema.traces).where((await import("drizzle-orm")).eq(schema.traces.id, answer.traceId));
      const checks = (stored.data as TraceRecord).claimChecks!;
      expect(checks.map((c) => [c.attempt, c.published, c.problems.map((p) => p.kind)])).toEqual([
        [1, true, []],
        [1, false, ["unknown_source_id"]],
        [1, true, []],
        [2, true, []],
      ]);
    });

    it("withholds the part whose held claim the retry does not repair, and keeps that part's valid claims and the other part", async () => {
      server.setScript([
        stream([part("When does the trip leave", [time]), part("Where does the trip leave", [gate, invented])]),
        stream([part("Where does the trip leave", [invented])]),
      ]);
      const before = await count(schema.claims);
      const seen = await readLive(await ask("When and where does the field trip leave?"));
      expect(claimTexts(seen)).toEqual([time.text, gate.text]);
      const answer = finalAnswer(seen);
      expect(answer.status).toBe("partial");
      expect(answer.parts.map((p) => [p.state, p.claims.map((c) => c.text)])).toEqual([
        ["supported", [time.text]],
        ["validation_failed", [gate.text]],
      ]);
      expect(await count(schema.claims)).toBe(before + 2);
    });

    it("gives an explicit error and no half claim when the stream is cut off mid-claim", async () => {
      const value = { parts: [part("When does the trip leave", [gate, time])] };
      const json = JSON.stringify(value);
      const cutAtChar = json.indexOf(time.text) + 5; // inside the second claim's text
      server.setScript([stream(value.parts, { cutAtChar })]);
      const before = { claims: await count(schema.claims), messages: await count(schema.messages) };
      const seen = await readLive(await ask("When exactly does the field trip leave?"));
      // The claim before the cut was complete and valid; the one cut off is never sent, not even in part.
      expect(claimTexts(seen)).toEqual([gate.text]);
      const answer = finalAnswer(seen);
      expect(answer.status).toBe("generation_error");
      expect(answer.parts).toEqual([]);
      expect(answer.message).toMatch(/model/i);
      // The exchange is stored with its status, and no claim of the cut answer.
      expect(await count(schema.claims)).toBe(before.claims);
      expect(await count(schema.messages)).toBe(before.messages + 2);
    });

    it("aborts the model request when the client cancels mid-stream: the server sees it, nothing is saved", async () => {
      server.setScript([stream([part("When does the trip leave", [gate, time, trip, gate, time, trip])], { chunkChars: 8, delayMs: 60 })]);
      const before = { conversations: await count(schema.conversations), messages: await count(schema.messages) };
      const streamsBefore = server.streams.length;
      const gone = new AbortController();
      const res = await ask("Tell me when the field trip leaves, please.", gone.signal);
      // The client goes away as soon as the first claim has arrived.
      await readLive(res, (e) => {
        if (e.type === "claim") gone.abort();
      }).catch(() => {});
      const log = server.streams[streamsBefore];
      await vi.waitFor(() => expect(log.aborted).toBe(true), { timeout: 10_000 });
      expect(log.finished).toBe(false);
      await vi.waitFor(async () => {
        const traces = await handle.db.select().from(schema.traces);
        expect(traces.filter((t) => (t.data as TraceRecord).question === "Tell me when the field trip leaves, please.").map((t) => t.status)).toEqual(["cancelled"]);
      }, { timeout: 10_000 });
      expect(await count(schema.conversations)).toBe(before.conversations);
      expect(await count(schema.messages)).toBe(before.messages);
    });
  });
});
