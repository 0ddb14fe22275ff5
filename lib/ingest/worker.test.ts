/**
 * Leases on ingestion jobs: two worker processes on one database file share the queue, a job is
 * run by one worker at a time, an expired lease is taken over, and a worker that lost its lease
 * writes nothing more. Workers in this process share one connection (two connections in one
 * process would wait for each other's locks on the one event loop; see lib/db/client.ts).
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/ai/tokenizer";
import { ensureCourse } from "@/lib/db/queries/courses";
import { chunks, documents, ingestionJobs, pages, revisions } from "@/lib/db/schema";
import { openTempDb } from "@/lib/db/temp";
import { buildPdf } from "@/lib/pdf/build";
import { submitUpload } from "./upload";
import { captureLogs } from "@/lib/server/log";
import { buildLargePdf } from "@/lib/pdf/build";
import { processQueuedJobs, startWorker, type WorkerDeps } from "./worker";

const base: WorkerDeps = { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 8, leaseMs: 1000 };
const workerA: WorkerDeps = { ...base, workerId: "wrk_a" };
const workerB: WorkerDeps = { ...base, workerId: "wrk_b" };
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const run = promisify(execFile);

let db: Awaited<ReturnType<typeof openTempDb>>;
let courseId: string;
beforeEach(async () => {
  db = await openTempDb();
  courseId = (await ensureCourse(db.db, { slug: "leases" })).id;
});
afterEach(() => db.dispose());

/** Uploads a handout of `pageCount` pages; distinct text per `n`, so every upload is a new document. */
async function upload(n: number, pageCount = 2) {
  const bytes = await buildPdf({
    pages: Array.from({ length: pageCount }, (_, p) => ({
      blocks: [{ kind: "paragraph" as const, text: `Handout ${n}, page ${p + 1}, explains topic number ${n} in plain words; restate it in one sentence.` }],
    })),
  });
  return submitUpload(db.db, { courseId, fileName: `handout-${n}.pdf`, bytes, maxBytes: 1 << 24 });
}

const jobOf = async (revisionId: string) => (await db.db.select().from(ingestionJobs).where(eq(ingestionJobs.revisionId, revisionId)))[0];
const revisionOf = async (revisionId: string) => (await db.db.select().from(revisions).where(eq(revisions.id, revisionId)))[0];
const chunkIds = async (revisionId: string) => (await db.db.select({ id: chunks.id }).from(chunks).where(eq(chunks.revisionId, revisionId))).map((c) => c.id);

describe("ingestion leases", () => {
  it("two worker processes on one database file never run the same job", async () => {
    // Queued jobs long enough (20 pages each) that both processes are draining at once.
    const queued = await Promise.all(Array.from({ length: 10 }, (_, i) => upload(i, 20)));
    const cli = (workerId: string, n: number) => {
      const extra = join(db.dir, `extra-${n}.pdf`);
      return buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text: `Extra handout ${n}.` }] }] }).then((bytes) => {
        writeFileSync(extra, bytes);
        // The ingest CLI uploads its file, then drains the whole queue: both compete for every job.
        return run(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/ingest.ts", "--course", "leases", extra], {
          // The default 30 s lease: a second attempt here could only be a double claim, never an expiry.
          env: { ...process.env, DATABASE_URL: db.url, INGEST_WORKER_ID: workerId },
          timeout: 120_000,
        });
      });
    };
    await Promise.all([cli("wrk_p1", 1), cli("wrk_p2", 2)]);

    const jobs = await db.db.select().from(ingestionJobs);
    expect(jobs).toHaveLength(12);
    for (const job of jobs) expect(job).toMatchObject({ status: "done", attempts: 1 });
    expect(new Set(jobs.map((j) => j.leaseOwner))).toEqual(new Set(["wrk_p1", "wrk_p2"]));
    for (const u of queued) {
      expect(await revisionOf(u.revision.id)).toMatchObject({ status: "ready", pageCount: 20 });
      const ids = await chunkIds(u.revision.id);
      expect(ids.length).toBeGreaterThanOrEqual(20);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it("renews the lease while a job runs, so a slow job is not taken over", async () => {
    // One job first, so this process has its tokenizer, reader threads and language model loaded:
    // the first job's synchronous warm-up (seconds on a loaded machine) blocks the event loop, and
    // with it the heartbeat, for longer than a test lease. A real lease (30 s) is far longer.
    await upload(0);
    expect(await processQueuedJobs(db, workerA)).toBe(1);
    const { revision } = await upload(1);
    const leaseMs = 2000;
    const slow = processQueuedJobs(db, { ...workerA, leaseMs, checkpoint: (stage) => (stage === "extracted" ? sleep(5000) : undefined) });
    // Two and a half lease lengths of polling by the other worker find nothing to take.
    for (let i = 0; i < 6; i++) {
      await sleep(800);
      expect(await processQueuedJobs(db, { ...workerB, leaseMs })).toBe(0);
    }
    expect(await slow).toBe(1);
    expect(await jobOf(revision.id)).toMatchObject({ status: "done", attempts: 1, leaseOwner: "wrk_a" });
  });

  it("reclaims a job whose lease expired, clearing the dead worker's partial pages first", async () => {
    const { revision } = await upload(1);
    const job = await jobOf(revision.id);
    // A worker that died after storing one page: running, its lease in the past.
    await db.db.update(ingestionJobs).set({ status: "running", attempts: 1, leaseOwner: "wrk_dead", leaseUntil: new Date(Date.now() - 1) }).where(eq(ingestionJobs.id, job.id));
    await db.db.insert(pages).values({ revisionId: revision.id, pdfPage: 1, text: "partial text of a dead attempt" });

    // A live lease is not taken…
    const live = await upload(2);
    await db.db.update(ingestionJobs).set({ status: "running", attempts: 1, leaseOwner: "wrk_alive", leaseUntil: new Date(Date.now() + 60_000) }).where(eq(ingestionJobs.revisionId, live.revision.id));
    expect(await processQueuedJobs(db, workerB)).toBe(1);
    expect(await jobOf(live.revision.id)).toMatchObject({ status: "running", attempts: 1, leaseOwner: "wrk_alive" });

    // …the expired one is, and finished once.
    expect(await jobOf(revision.id)).toMatchObject({ status: "done", attempts: 2, leaseOwner: "wrk_b" });
    const stored = await db.db.select().from(pages).where(eq(pages.revisionId, revision.id));
    expect(stored.map((p) => p.pdfPage).sort()).toEqual([1, 2]);
    expect(stored.map((p) => p.text).join(" ")).not.toContain("dead attempt");
    expect(await chunkIds(revision.id)).toHaveLength(2);
  });

  it("fails a job whose lease expired on every one of its attempts", async () => {
    const { revision } = await upload(1);
    await db.db.update(ingestionJobs).set({ status: "running", attempts: 3, leaseOwner: "wrk_dead", leaseUntil: new Date(Date.now() - 1) }).where(eq(ingestionJobs.revisionId, revision.id));
    await db.db.insert(pages).values({ revisionId: revision.id, pdfPage: 1, text: "partial" });
    expect(await processQueuedJobs(db, workerA)).toBe(1);
    const failed = "Ingestion was interrupted repeatedly; upload the file again.";
    expect(await jobOf(revision.id)).toMatchObject({ status: "failed", error: failed });
    expect(await revisionOf(revision.id)).toMatchObject({ status: "failed", error: failed });
    expect(await db.db.select().from(pages).where(eq(pages.revisionId, revision.id))).toEqual([]);
  });

  it("a worker that lost its lease stops without publishing, failing or touching the new owner's rows", async () => {
    const { revision, document } = await upload(1);
    const logs = captureLogs();
    let published: { readyAt: Date | null; finishedAt: Date | null } | undefined;
    const stalled = processQueuedJobs(db, {
      ...workerA,
      checkpoint: async (stage) => {
        if (stage !== "embedded") return;
        // Worker A stalls just before publishing (its renewals stopped): its lease runs out and
        // worker B takes the job over and finishes it.
        await db.db.update(ingestionJobs).set({ leaseUntil: new Date(Date.now() - 1) }).where(eq(ingestionJobs.revisionId, revision.id));
        expect(await processQueuedJobs(db, workerB)).toBe(1);
        published = { readyAt: (await revisionOf(revision.id)).readyAt, finishedAt: (await jobOf(revision.id)).finishedAt };
        await sleep(20);
      },
    });
    expect(await stalled).toBe(1);
    try {
      expect(published?.readyAt).toBeInstanceOf(Date);
      // A's publish would have stamped the revision and the job again, 20 ms later.
      expect(await revisionOf(revision.id)).toMatchObject({ status: "ready", readyAt: published!.readyAt, error: null });
      expect(await jobOf(revision.id)).toMatchObject({ status: "done", attempts: 2, leaseOwner: "wrk_b", finishedAt: published!.finishedAt, error: null });
      expect(await chunkIds(revision.id)).toHaveLength(2);
      const [doc] = await db.db.select().from(documents).where(eq(documents.id, document.id));
      expect(doc.currentRevisionId).toBe(revision.id);
      const jobId = (await jobOf(revision.id)).id;
      const lines = logs.lines.map((l) => JSON.parse(l)).filter((l) => l.event === "ingest_job" && l.jobId === jobId);
      // One line per claim: B's finished job, and A's, stopped without publishing.
      expect(lines.map((l) => [l.owner, l.status])).toEqual([
        ["wrk_b", "done"],
        ["wrk_a", "lease_lost"],
      ]);
      expect(lines[0].timings).toMatchObject({ extract: expect.any(Number), storePages: expect.any(Number), storeChunks: expect.any(Number), publish: expect.any(Number) });
      expect(lines[1].error).toContain(`ingestion job ${jobId} passed to another worker`);
    } finally {
      logs.restore();
    }
  });

  it("hands a running job back at shutdown: partial rows go, the job is queued with the attempt not counted, and the next worker finishes it once", async () => {
    const bytes = await buildLargePdf(120);
    const { revision } = await submitUpload(db.db, { courseId, fileName: "reader.pdf", title: "Reader", bytes, maxBytes: 1 << 26 });
    const logs = captureLogs();
    try {
      let stop!: () => Promise<void>;
      const reachedPages = new Promise<void>((resolve) => {
        const worker = startWorker(db, {
          ...workerA,
          leaseMs: 30_000,
          checkpoint: async (stage) => {
            if (stage === "pages_stored") resolve();
            // Held here, as a long job would be, until shutdown hands it back.
            if (stage === "pages_stored") await sleep(300);
          },
        });
        stop = worker.stop;
      });
      await reachedPages;
      expect((await db.db.select().from(pages).where(eq(pages.revisionId, revision.id))).length).toBe(120);
      await stop();
      expect(await jobOf(revision.id)).toMatchObject({ status: "queued", attempts: 0, leaseOwner: null, leaseUntil: null });
      expect(await revisionOf(revision.id)).toMatchObject({ status: "queued", progress: 0 });
      expect(await db.db.select().from(pages).where(eq(pages.revisionId, revision.id))).toEqual([]);
      await sleep(400);
      // The held job went on after its checkpoint and found it was no longer this worker's: nothing written.
      expect(await chunkIds(revision.id)).toEqual([]);
      const line = logs.lines.map((l) => JSON.parse(l)).find((l) => l.event === "ingest_job");
      expect(line).toMatchObject({ status: "handed_back", owner: "wrk_a", pages: 120 });

      // The next start (here: worker B) runs it from the beginning, once.
      expect(await processQueuedJobs(db, workerB)).toBe(1);
      expect(await jobOf(revision.id)).toMatchObject({ status: "done", attempts: 1, leaseOwner: "wrk_b" });
      expect(await revisionOf(revision.id)).toMatchObject({ status: "ready", pageCount: 120 });
      const ids = await chunkIds(revision.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect((await db.db.select().from(pages).where(eq(pages.revisionId, revision.id))).length).toBe(120);
    } finally {
      logs.restore();
    }
  });
});
