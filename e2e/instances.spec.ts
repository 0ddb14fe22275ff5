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
 * once; then a long upload goes to the second process, which is killed with SIGKILL while it reads
 * it, and the first finishes that job once the lease has expired.
 */

const SECOND_PORT = env.E2E_PORT + 1;
const SECOND_URL = `http://127.0.0.1:${SECOND_PORT}`;
const SECOND_WORKER_ID = "wrk_e2e_second";
const INSTRUCTOR = { email: "instructor@demo.test", password: "demo-instructor" };
const UPLOADS = 20;
const PAGES = 40;
/**
 * The handout the second server is killed reading: PDFium reads a short one in tens of
 * milliseconds, too fast to be seen mid-read reliably; this one, with several paragraphs a page,
 * takes about half a second on a warm worker (more on a loaded machine), against a 20 ms watch.
 */
const LONG_PAGES = 1000;
const LONG_PARAGRAPHS = 4;

let second: NextServer | undefined;
let secondApi: APIRequestContext | undefined;
let reader: Client | undefined;

/** A handout whose every page names its handout, so no two uploads are alike. */
function handout(n: number, pageCount: number, paragraphs: number): Promise<Uint8Array> {
  return buildPdf({
    title: `Replication handout ${n}`,
    pages: Array.from({ length: pageCount }, (_, p) => ({
      blocks: [
        { kind: "heading" as const, text: `Replication handout ${n}, section ${p + 1}` },
        ...Array.from({ length: paragraphs }, (_, k) => ({
          kind: "paragraph" as const,
          text: `Handout ${n} section ${p + 1}.${k + 1}: a replica applies the leader's log in order, so every replica that has applied the same prefix holds the same state.`,
        })),
      ],
    })),
  });
}

async function upload(api: APIRequestContext, slug: string, n: number, { pages = PAGES, paragraphs = 1 } = {}): Promise<string> {
  const res = await api.post(`/api/courses/${slug}/documents`, {
    multipart: { file: { name: `replication-${n}.pdf`, mimeType: "application/pdf", buffer: Buffer.from(await handout(n, pages, paragraphs)) } },
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
}

async function jobs(revisionIds: string[]): Promise<JobRow[]> {
  const rs = await reader!.execute({
    sql: `SELECT j.id, j.revision_id, j.status, j.attempts, j.lease_owner, j.lease_until, j.started_at, r.status AS revision_status
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
  const readyCount = async (ids: string[]) => (await jobs(ids)).filter((j) => j.revisionStatus === "ready").length;
  await expect.poll(() => readyCount(revisionIds), { timeout: 120_000, intervals: [250] }).toBe(UPLOADS);
  const drained = await jobs(revisionIds);
  for (const job of drained) expect(job, `job ${job.id}`).toMatchObject({ status: "done", attempts: 1 });
  // Both servers did some of the work (which one claims a job is a race, so only "some").
  expect(new Set(drained.map((j) => j.leaseOwner))).toEqual(new Set([E2E_MAIN_WORKER_ID, SECOND_WORKER_ID]));

  // With the queue empty, the first server's worker only looks on its slow poll, so the long
  // upload through the second server is claimed by the second server's own kick.
  const longId = await upload(secondApi, slug, UPLOADS + 1, { pages: LONG_PAGES, paragraphs: LONG_PARAGRAPHS });
  revisionIds.push(longId);

  // Kill the second server while it holds that job and is still reading it.
  let killed: JobRow | undefined;
  const watchUntil = Date.now() + 90_000;
  while (!killed && Date.now() < watchUntil) {
    const [job] = await jobs([longId]);
    if (job.status === "running" && job.leaseOwner === SECOND_WORKER_ID && job.revisionStatus === "extracting") {
      second!.child.kill("SIGKILL");
      killed = job;
    } else if (job.status === "done") {
      break;
    } else {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  expect(killed, "the second server was seen reading the long upload").toBeDefined();
  await new Promise<void>((resolve) => (second!.child.exitCode !== null || second!.child.signalCode !== null ? resolve() : second!.child.once("exit", () => resolve())));
  expect(second!.child.signalCode).toBe("SIGKILL");
  // Dead with the job in hand: still running under its lease.
  const [atDeath] = await jobs([longId]);
  expect(atDeath).toMatchObject({ status: "running", leaseOwner: SECOND_WORKER_ID, attempts: 1 });

  // The first server takes it over after the lease expires, and finishes it.
  await expect.poll(() => readyCount([longId]), { timeout: 120_000, intervals: [500] }).toBe(1);
  const [takenOver] = await jobs([longId]);
  expect(takenOver).toMatchObject({ status: "done", attempts: 2, leaseOwner: E2E_MAIN_WORKER_ID });
  expect(takenOver.startedAt!, "reclaimed only after the dead server's lease expired").toBeGreaterThanOrEqual(atDeath.leaseUntil!);

  // Each revision exactly once: every page once, and on every page chunk ordinals 0…k-1 without repeats or gaps.
  for (const revisionId of revisionIds) {
    const pageCount = revisionId === longId ? LONG_PAGES : PAGES;
    const pageRows = await reader!.execute({ sql: "SELECT pdf_page FROM pages WHERE revision_id = ? ORDER BY pdf_page", args: [revisionId] });
    expect(pageRows.rows.map((r) => Number(r.pdf_page))).toEqual(Array.from({ length: pageCount }, (_, i) => i + 1));
    const chunkRows = await reader!.execute({
      sql: "SELECT pdf_page, count(*) AS n, count(DISTINCT ordinal) AS distinct_n, min(ordinal) AS lo, max(ordinal) AS hi FROM chunks WHERE revision_id = ? GROUP BY pdf_page",
      args: [revisionId],
    });
    expect(chunkRows.rows).toHaveLength(pageCount);
    for (const r of chunkRows.rows) expect([Number(r.n), Number(r.distinct_n), Number(r.lo), Number(r.hi)]).toEqual([Number(r.n), Number(r.n), 0, Number(r.n) - 1]);
  }
  const current = await reader!.execute({
    sql: `SELECT count(*) AS n FROM documents d JOIN revisions r ON r.id = d.current_revision_id
          WHERE r.id IN (${revisionIds.map(() => "?").join(", ")}) AND r.number = 1`,
    args: revisionIds,
  });
  expect(Number(current.rows[0].n)).toBe(UPLOADS + 1);

  // The surviving server shows every upload ready.
  await docs.goto(slug);
  await expect(docs.documentRows).toHaveCount(UPLOADS + 1);
  await page.screenshot({ path: testInfo.outputPath("instances-documents.png"), fullPage: true });
});
