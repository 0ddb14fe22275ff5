import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { llmGenerator } from "@/lib/ai/generators";
import { startScriptedOpenAI, type ScriptedReply } from "@/lib/ai/openai-server.mock";
import { countTokens } from "@/lib/ai/tokenizer";
import { ensureCourse } from "@/lib/db/queries/courses";
import { getTrace } from "@/lib/db/queries/answers";
import { openTempDb } from "@/lib/db/temp";
import { submitUpload } from "@/lib/ingest/upload";
import { processQueuedJobs } from "@/lib/ingest/worker";
import { buildPdf } from "@/lib/pdf/build";
import type { TraceRecord } from "@/lib/rag/pipeline";
import { ask, askDeps } from "./ask";

const NOTICE = "Assignment 2 is due on 18 September at 17:00.";
const PENALTY = "Late submissions lose 10% per day.";

let db: Awaited<ReturnType<typeof openTempDb>>;
let courseId: string;
let server: Awaited<ReturnType<typeof startScriptedOpenAI>> | undefined;

beforeEach(async () => {
  db = await openTempDb();
  courseId = (await ensureCourse(db.db, { slug: "llm" })).id;
  const bytes = await buildPdf({ pages: [{ blocks: [{ kind: "heading", text: "Notice" }, { kind: "paragraph", text: `${NOTICE} ${PENALTY}` }] }] });
  await submitUpload(db.db, { courseId, fileName: "notice.pdf", bytes, maxBytes: 1 << 24 });
  await processQueuedJobs(db, { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 8 });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  db.dispose();
});

const answer = (claims: Array<{ text: string; evidence: Array<{ sourceId: string; quote: string }> }>, state = "supported") => ({
  kind: "json" as const,
  value: { parts: [{ ask: "When is assignment 2 due", state, claims }] },
});
const good = answer([{ text: "Assignment 2 is due on 18 September at 17:00.", evidence: [{ sourceId: "S1", quote: NOTICE }] }]);

async function run(script: ScriptedReply[], { timeoutMs = 5_000, question = "When is assignment 2 due?" } = {}) {
  server = await startScriptedOpenAI({ chat: script });
  const generator = llmGenerator({ model: "scripted-model", baseURL: server.baseURL, apiKey: "test", temperature: 0, timeoutMs, maxRetries: 1 });
  const result = await ask(db, { courseId, question, history: [] }, askDeps(db, courseId, {}, generator));
  return { ...result, requests: server.chatRequests() };
}

describe("the LLM path over real HTTP", () => {
  it("answers from valid structured output, citing the page and revision", async () => {
    const { answer: a, requests } = await run([good]);
    expect(a.status).toBe("answered");
    expect(a.generator).toBe("scripted-model");
    const [cit] = a.parts[0].claims[0].citations;
    expect(cit).toMatchObject({ label: "S1", quote: NOTICE, pdfPage: 1, revision: 1, documentTitle: "notice" });
    expect(requests).toHaveLength(1);
    // The request is the grounded one: instruction as system, passages fenced as data, temperature 0.
    const body = requests[0].body as { messages: Array<{ role: string; content: string }>; temperature: number };
    expect(body.temperature).toBe(0);
    expect(body.messages[0].role).toBe("system");
    expect(body.messages[1].content).toContain(`<passage id="S1">`);
    expect(body.messages[1].content).toContain(NOTICE);
    const stored = await getTrace(db.db, { courseId, traceId: a.traceId });
    expect((stored!.data as TraceRecord).attempts[0].raw).toContain("18 September");
  });

  it("says why a part the model left missing is missing, as for the extractive answer", async () => {
    const supported = good.value.parts[0];
    const partial = { kind: "json" as const, value: { parts: [supported, { ask: "where is the exam held", state: "missing", claims: [] }] } };
    const { answer: a } = await run([partial], { question: "When is assignment 2 due, and where is the exam held?" });
    expect(a.status).toBe("partial");
    expect(a.parts.map((p) => p.gap)).toEqual([undefined, { kind: "unmentioned", text: "No passage found mentions “exam”." }]);
  });

  it("shows a part and a claim the model repeated once", async () => {
    const c = { text: "Assignment 2 is due on 18 September at 17:00.", evidence: [{ sourceId: "S1", quote: NOTICE }] };
    const twice = { kind: "json" as const, value: { parts: [{ ask: "When is assignment 2 due", state: "supported", claims: [c, c] }, { ask: "when is assignment 2 due?", state: "supported", claims: [c] }] } };
    const { answer: a } = await run([twice]);
    expect(a.status).toBe("answered");
    expect(a.parts.map((p) => [p.ask, p.claims.length])).toEqual([["When is assignment 2 due", 1]]);
  });

  it("retries once when the model invents a source id, then fails validation if it does it again", async () => {
    const invented = answer([{ text: "Due 18 September.", evidence: [{ sourceId: "S9", quote: NOTICE }] }]);
    const { answer: a, requests, trace } = await run([invented, invented]);
    expect(a.status).toBe("validation_failed");
    expect(a.parts.map((p) => [p.state, p.claims.length])).toEqual([["validation_failed", 0]]);
    expect(a.message).toMatch(/withheld/i);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1].body)).toContain("S9");
    expect(trace.attempts.map((t) => t.problems.map((p) => p.kind))).toEqual([["unknown_source_id"], ["unknown_source_id"]]);
  });

  it("accepts a corrected answer on the retry after an altered quote", async () => {
    const altered = answer([{ text: "Due 19 September.", evidence: [{ sourceId: "S1", quote: "Assignment 2 is due on 19 September at 17:00." }] }]);
    const { answer: a, requests, trace } = await run([altered, good]);
    expect(a.status).toBe("answered");
    expect(a.parts[0].claims[0].citations[0].quote).toBe(NOTICE);
    expect(requests).toHaveLength(2);
    expect(trace.attempts[0].problems.map((p) => p.kind)).toEqual(["quote_not_in_passage"]);
  });

  it("never publishes an uncited claim", async () => {
    const uncited = answer([{ text: "Assignment 2 is due on 18 September.", evidence: [] }]);
    const { answer: a } = await run([uncited, uncited]);
    expect(a.status).toBe("validation_failed");
    expect(a.parts.map((p) => [p.state, p.claims.length])).toEqual([["validation_failed", 0]]);
  });

  it("turns a 500 into generation_error with nothing invented", async () => {
    const { answer: a, requests } = await run([{ kind: "status", status: 500 }]);
    expect(a.status).toBe("generation_error");
    expect(a.parts).toEqual([]);
    expect(a.message).toMatch(/model/i);
    expect(requests.length).toBe(2); // the first call and its one SDK retry
  });

  it("turns a timeout into generation_error", async () => {
    const { answer: a } = await run([{ kind: "hang" }], { timeoutMs: 1_000 });
    expect(a.status).toBe("generation_error");
    expect(a.parts).toEqual([]);
  });

  it("rewrites a follow-up into a standalone question with one model call, and searches with it", async () => {
    server = await startScriptedOpenAI({ chat: [{ kind: "content", content: "When is assignment 2 due?" }, good] });
    const generator = llmGenerator({ model: "scripted-model", baseURL: server.baseURL, apiKey: "test", temperature: 0, timeoutMs: 5_000, maxRetries: 0 });
    const { answer, trace } = await ask(db, { courseId, question: "and when is it due?", history: ["What is assignment 2 about?"] }, askDeps(db, courseId, {}, generator));
    expect(trace.standaloneQuery).toBe("When is assignment 2 due?");
    expect(answer.status).toBe("answered");
    const [rewrite, grounded] = server.chatRequests().map((r) => JSON.stringify(r.body));
    expect(rewrite).toContain("What is assignment 2 about?");
    // The grounded request keeps the student's own words and the earlier question as context.
    expect(grounded).toContain("and when is it due?");
    expect(grounded).toContain("Earlier questions");
  });

  it("turns malformed JSON into generation_error", async () => {
    const { answer: a } = await run([{ kind: "content", content: "Sure! The answer is 18 September." }]);
    expect(a.status).toBe("generation_error");
    expect(a.parts).toEqual([]);
  });
});
