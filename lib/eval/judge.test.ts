/** The evaluation's model judge through real HTTP (scripted OpenAI-compatible server), a real libSQL file and a real PDF. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedOpenAI } from "@/lib/ai/openai-server.mock";
import { textModel } from "@/lib/ai/generators";
import { signUp } from "@/lib/auth/accounts";
import { createCourse } from "@/lib/db/queries/courses";
import { openTempDb } from "@/lib/db/temp";
import { workerDepsFromEnv } from "@/lib/ingest/deps";
import { submitUpload } from "@/lib/ingest/upload";
import { processQueuedJobs } from "@/lib/ingest/worker";
import { buildPdf } from "@/lib/pdf/build";
import { runGoldenSet } from "./course-run";
import { JUDGE_SYSTEM_PROMPT, parseJudgeReply } from "./judge";
import type { GoldenQuestion } from "./metrics";

const HIVES = "Beehives are inspected every nine days during the swarming season.";
const HONEY = "A strong colony stores about twenty kilograms of honey for the winter.";

const questions: GoldenQuestion[] = [
  { id: "j-1", course: "bees", question: "How often are beehives inspected during the swarming season?", expect: "answered", answer: "every nine days", pages: [{ document: "apiary", pdfPage: 1, quote: HIVES }], kind: "answerable", split: "test" },
  { id: "j-2", course: "bees", question: "How much honey does a strong colony store for the winter?", expect: "answered", answer: "twenty kilograms", pages: [{ document: "apiary", pdfPage: 2, quote: HONEY }], kind: "answerable", split: "test" },
];

let handle: Awaited<ReturnType<typeof openTempDb>>;
let server: Awaited<ReturnType<typeof startScriptedOpenAI>>;
let courseId: string;

const userOf = (body: Record<string, unknown>) => (body.messages as Array<{ role: string; content: string }>).find((m) => m.role === "user")!.content;

beforeAll(async () => {
  handle = await openTempDb();
  server = await startScriptedOpenAI();
  const userId = (await signUp(handle.db, { email: "j@g.test", name: "J", password: "password-j" })).id;
  courseId = (await createCourse(handle.db, { title: "Bees", instructorId: userId })).id;
  const bytes = await buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text: HIVES }] }, { blocks: [{ kind: "paragraph", text: HONEY }] }] });
  await submitUpload(handle.db, { courseId, fileName: "apiary.pdf", bytes: new Uint8Array(bytes), maxBytes: 1 << 24 });
  await processQueuedJobs(handle, workerDepsFromEnv());
});
afterAll(async () => {
  await server.close();
  handle.dispose();
});

describe("the model judge of an evaluation run", () => {
  it("reads a verdict wrapped in prose, and nothing from a reply of the wrong shape", () => {
    expect(parseJudgeReply('Here is my grade: {"correct": true, "supported": [true, false]} — done.', 2)).toEqual({ correct: true, supportedClaims: 1, claims: 2 });
    expect(parseJudgeReply('{"correct": true, "supported": [true]}', 2)).toBeNull();
    expect(parseJudgeReply('{"correct": "yes", "supported": [true]}', 1)).toBeNull();
    expect(parseJudgeReply("The answer looks right to me.", 1)).toBeNull();
  });

  it("asks the judge about each answered question over HTTP, counts its verdicts, and stores its prompt with the run", async () => {
    // The first question's verdict: correct, every claim supported; the second reply is not JSON, so that question is not judged.
    server.setScript([
      { kind: "fromRequest", reply: (body) => ({ kind: "content", content: JSON.stringify({ correct: true, supported: [...userOf(body).matchAll(/^\d+\. /gm)].map(() => true) }) }) },
      { kind: "content", content: "I cannot tell." },
    ]);
    const report = await runGoldenSet(handle, { courseId, questions, config: {}, judge: textModel({ model: "judge-model", baseURL: server.baseURL, apiKey: "k", temperature: 0, timeoutMs: 10_000, maxRetries: 0 }) });
    expect(report.questions.map((q) => q.status)).toEqual(["answered", "answered"]);
    const asked = server.chatRequests();
    expect(asked).toHaveLength(2);
    const [system] = asked[0].body.messages as Array<{ role: string; content: string }>;
    expect(system).toEqual({ role: "system", content: JUDGE_SYSTEM_PROMPT });
    expect(userOf(asked[0].body)).toContain("Expected answer: every nine days");
    expect(userOf(asked[0].body)).toContain(`apiary, PDF page 1: ${HIVES}`);
    expect(report.metrics.judgedCorrectness).toEqual({ hits: 1, n: 1, rate: 1 });
    expect(report.metrics.judgedFaithfulness.rate).toBe(1);
    expect(report.judge).toEqual({ model: "judge-model", prompt: JUDGE_SYSTEM_PROMPT });
  });

  it("runs without a judge when no model is configured", async () => {
    const before = server.chatRequests().length;
    const report = await runGoldenSet(handle, { courseId, questions, config: {}, judge: null });
    expect(server.chatRequests()).toHaveLength(before);
    expect(report.judge).toBeNull();
    expect(report.metrics.judgedCorrectness.rate).toBeNull();
  });
});
