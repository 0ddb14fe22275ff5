import { createClient, type Client } from "@libsql/client";
import { expect, request as playwrightRequest, test, type APIRequestContext } from "@playwright/test";
import { env } from "../lib/env";
import { buildPdf } from "../lib/pdf/build";
import { DocumentsPage } from "./pages/documents-page";
import { startNextServer, stopNextServer, type NextServer } from "./next-server";
import { E2E_DATABASE_URL, E2E_MAIN_WORKER_ID, e2eServerEnv } from "./server-env";

/**
 * Two app processes on one database file: the server playwright.config.ts started and a second
 * server (server.mjs) of the same build. Twenty uploads, ten through each, are each indexed exactly
 * once; the second process is killed with SIGKILL while it holds a job, and the first finishes
 * that job once the lease has expired.
 */

const SECOND_PORT = env.E2E_PORT + 1;
const SECOND_URL = `http://127.0.0.1:${SECOND_PORT}`;
const SECOND_WORKER_ID = "wrk_e2e_second";
const INSTRUCTOR = { email: "instructor@demo.test", password: "demo-instructor" };
const UPLOADS = 20;
/** Long enough that a job is still being read a good while after it is seen started. */
const PAGES = 40;

let second: NextServer | undefined;
let secondApi: APIRequestContext | undefined;
let reader: Client | undefined;

/** A handout of PAGES pages whose every page names its handout, so no two uploads are alike. */
function handout(n: number): Promise<Uint8Array> {
  return buildPdf({
    title: `Replication handout ${n}`,
    pages: Array.from({ length: PAGES }, (_, p) => ({
      blocks: [
        { kind: "heading" as const, text: `Replication handout ${n}, section ${p + 1}` },
        {
          kind: "paragraph" as const,
          text: `Handout ${n} section ${p + 1}: a replica applies the leader's log in order, so every replica that has applied the same prefix holds the same state.`,
        },
      ],
    })),
  });
}

async function upload(api: APIRequestContext, slug: string, n: number): Promise<string> {
  const res = await api.post(`/api/courses/${slug}/documents`, {
    multipart: { file: { name: `replication-${n}.pdf`, mimeType: "application/pdf", buffer: Buffer.from(await handout(n)) } },
  });
  expect(res.status(), `upload ${n}`).toBe(201);
  return (await res.json()).revisionId;
}

interface JobRow {
  id: string;
  revisionId: string;
  status: string;
  attempts: number;
  leaseOwner: string | null;
  leaseUntil: number | null;
  startedAt: number | null;
  revisionStatus: string;
  progress: number;
}

async function jobs(revisionIds: string[]): Promise<JobRow[]> {
  const rs = await reader!.execute({
    sql: `SELECT j.id, j.revision_id, j.status, j.attempts, j.lease_owner, j.lease_until, j.started_at, r.status AS revision_status, r.progress
          FROM ingestion_jobs j JOIN revisions r ON r.id = j.revision_id
          WHERE j.revision_id IN (${revisionIds.map(() => "?").join(", ")})`,
    args: revisionIds,
  });
  return rs.rows.map((r) => ({
    id: String(r.id),
    revisionId: String(r.revision_id),
    status: String(r.status),
    attempts: Number(r.attempts),
    leaseOwner: r.lease_owner === null ? null : String(r.lease_owner),
    leaseUntil: r.lease_until === null ? null : Number(r.lease_until),
    startedAt: r.started_at === null ? null : Number(r.started_at),
    revisionStatus: String(r.revision_status),
    progress: Number(r.progress),
  }));
}

test.beforeAll(async () => {
  // The build is the one the webServer just made.
  second = await startNextServer(SECOND_PORT, e2eServerEnv(SECOND_WORKER_ID));
  // Read-only: the test watches the database and never writes to it.
  reader = createClient({ url: E2E_DATABASE_URL, concurrency: 1 });
  await reader.execute("PRAGMA query_only = ON");
});

test.afterAll(async ({}, testInfo) => {
  stopNextServer(second);
  await secondApi?.dispose();
  reader?.close();
  await testInfo.attach("second-server.log", { body: second?.log() ?? "", contentType: "text/plain" });
});

test("two instances share one database: every upload is indexed once, and a killed instance's job is finished by the other", async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  const docs = new DocumentsPage(page);
  // Signed in on both servers; the session lives in the shared database either way.
  await docs.signIn(INSTRUCTOR);
  const firstApi = page.request;
  secondApi = await playwrightRequest.newContext({ baseURL: SECOND_URL });
  const signIn = await secondApi.post("/api/auth/sign-in", { data: INSTRUCTOR });
  expect(signIn.status()).toBe(200);

  // A course of its own, created through the second server, so the other specs' courses are untouched.
  const created = await secondApi.post("/api/courses", { data: { title: `Replication ${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { slug } = await created.json();

  // Ten uploads through each server, alternating; both workers drain the one queue.
  const revisionIds: string[] = [];
  for (let n = 1; n <= UPLOADS; n++) revisionIds.push(await upload(n % 2 ? firstApi : secondApi, slug, n));

  // Kill the second server while it holds a job it has only begun to read.
  let killed: JobRow | undefined;
  const watchUntil = Date.now() + 90_000;
  while (!killed && Date.now() < watchUntil) {
    const held = (await jobs(revisionIds)).find(
      (j) => j.status === "running" && j.leaseOwner === SECOND_WORKER_ID && j.revisionStatus === "extracting" && j.progress <= PAGES / 2,
    );
    if (held) {
      second!.child.kill("SIGKILL");
      killed = held;
    } else {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  expect(killed, "the second server was seen holding a job").toBeDefined();
  await new Promise<void>((resolve) => (second!.child.exitCode !== null || second!.child.signalCode !== null ? resolve() : second!.child.once("exit", () => resolve())));
  expect(second!.child.signalCode).toBe("SIGKILL");
  // Dead with the job in hand: still running under its lease.
  const [atDeath] = await jobs([killed!.revisionId]);
  expect(atDeath).toMatchObject({ status: "running", leaseOwner: SECOND_WORKER_ID, attempts: 1 });

  // The first server takes it over after the lease expires, and finishes everything.
  await expect
    .poll(async () => (await jobs(revisionIds)).filter((j) => j.revisionStatus === "ready").length, { timeout: 120_000, intervals: [500] })
    .toBe(UPLOADS);
  const done = await jobs(revisionIds);
  for (const job of done) expect(job.status, `job ${job.id}`).toBe("done");
  const takenOver = done.find((j) => j.id === killed!.id)!;
  expect(takenOver).toMatchObject({ attempts: 2, leaseOwner: E2E_MAIN_WORKER_ID });
  expect(takenOver.startedAt!, "reclaimed only after the dead server's lease expired").toBeGreaterThanOrEqual(atDeath.leaseUntil!);
  for (const job of done.filter((j) => j.id !== killed!.id)) expect(job.attempts, `job ${job.id} ran once`).toBe(1);

  // Each revision exactly once: every page once, and on every page chunk ordinals 0…k-1 without repeats or gaps.
  for (const revisionId of revisionIds) {
    const pageRows = await reader!.execute({ sql: "SELECT pdf_page FROM pages WHERE revision_id = ? ORDER BY pdf_page", args: [revisionId] });
    expect(pageRows.rows.map((r) => Number(r.pdf_page))).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
    const chunkRows = await reader!.execute({
      sql: "SELECT pdf_page, count(*) AS n, count(DISTINCT ordinal) AS distinct_n, min(ordinal) AS lo, max(ordinal) AS hi FROM chunks WHERE revision_id = ? GROUP BY pdf_page",
      args: [revisionId],
    });
    expect(chunkRows.rows).toHaveLength(PAGES);
    for (const r of chunkRows.rows) expect([Number(r.n), Number(r.distinct_n), Number(r.lo), Number(r.hi)]).toEqual([Number(r.n), Number(r.n), 0, Number(r.n) - 1]);
  }
  const current = await reader!.execute({
    sql: `SELECT count(*) AS n FROM documents d JOIN revisions r ON r.id = d.current_revision_id
          WHERE r.id IN (${revisionIds.map(() => "?").join(", ")}) AND r.number = 1`,
    args: revisionIds,
  });
  expect(Number(current.rows[0].n)).toBe(UPLOADS);

  // The surviving server shows all twenty ready.
  await docs.goto(slug);
  await expect(docs.documentRows).toHaveCount(UPLOADS);
  await page.screenshot({ path: testInfo.outputPath("instances-documents.png"), fullPage: true });
});
