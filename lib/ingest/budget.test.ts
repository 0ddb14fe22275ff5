/**
 * One upload cannot stall indexing (issue 15): a page cap refused before any page is read, a time
 * and a memory budget per job that fail it with their reason, and scheduling that is fair across
 * courses, so course B's one page is ready while course A's 5,000 pages are still being indexed.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/ai/tokenizer";
import { ensureCourse } from "@/lib/db/queries/courses";
import { pages, revisions } from "@/lib/db/schema";
import { openTempDb } from "@/lib/db/temp";
import { buildManyPagePdf, buildPdf } from "@/lib/pdf/build";
import { submitUpload } from "./upload";
import { processQueuedJobs, startWorker, type WorkerDeps } from "./worker";

const base: WorkerDeps = { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 8, workerId: "wrk_budget" };
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

let db: Awaited<ReturnType<typeof openTempDb>>;
beforeEach(async () => {
  db = await openTempDb();
});
afterEach(() => db.dispose());

async function upload(course: string, fileName: string, bytes: Uint8Array) {
  const courseId = (await ensureCourse(db.db, { slug: course })).id;
  return (await submitUpload(db.db, { courseId, fileName, bytes, maxBytes: 1 << 26 })).revision.id;
}
const revisionOf = async (id: string) => (await db.db.select().from(revisions).where(eq(revisions.id, id)))[0];
const onePage = (text: string) => buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text }] }] });

describe("per-job limits", () => {
  it("refuses a PDF over the page cap with the count and the limit, reading no page", async () => {
    const id = await upload("cap", "reader.pdf", await buildManyPagePdf(30));
    await processQueuedJobs(db, { ...base, maxPages: 20 });
    expect(await revisionOf(id)).toMatchObject({ status: "failed", error: "This PDF has 30 pages; the limit is 20. Split it into smaller files.", progress: 0 });
    expect(await db.db.select().from(pages).where(eq(pages.revisionId, id))).toEqual([]);
  });

  it("fails a job past its time budget with that reason, and the next job still runs", async () => {
    const slow = await upload("slow", "slow.pdf", await onePage("The slow handout."));
    const next = await upload("slow", "next.pdf", await onePage("The next handout."));
    let first = true;
    const checkpoint = async () => {
      if (first) await sleep(1300); // the first job stalls past its one-second budget
      first = false;
    };
    await processQueuedJobs(db, { ...base, jobTimeoutMs: 1000, checkpoint });
    expect(await revisionOf(slow)).toMatchObject({ status: "failed", error: "Indexing took longer than its 1 s budget. Split the PDF into smaller files." });
    expect(await db.db.select().from(pages).where(eq(pages.revisionId, slow))).toEqual([]);
    expect((await revisionOf(next)).status).toBe("ready");
  });

  it("fails a job whose reader runs out of its memory budget with that reason; the next reader has the usual heap", async () => {
    const id = await upload("memory", "heavy.pdf", await buildManyPagePdf(40));
    await processQueuedJobs(db, { ...base, readerHeapMb: 16, readerThreads: 1 });
    const failed = await revisionOf(id);
    expect(failed.status).toBe("failed");
    expect(failed.error).toBe("Reading this PDF needed more than its memory budget (16 MB). Split it into smaller files.");
    const again = await upload("memory", "light.pdf", await onePage("A light handout."));
    await processQueuedJobs(db, { ...base, readerThreads: 1 });
    expect((await revisionOf(again)).status).toBe("ready");
  });
});

describe("fair scheduling across courses", () => {
  it("makes course B's 1-page upload ready while course A's 5,000-page upload is still indexing", { timeout: 240_000 }, async () => {
    const big = await upload("course-a", "reader.pdf", await buildManyPagePdf(5000, "chapter"));
    const worker = startWorker(db, { ...base, maxPages: 10_000, concurrency: 2, leaseMs: 10_000 }, { pollMs: 100 });
    try {
      // A's job is taken first (it is the only one), then B uploads its one page.
      while ((await revisionOf(big)).status === "queued") await sleep(50);
      const small = await upload("course-b", "notice.pdf", await onePage("Course B's lab moves to room 4."));
      void worker.kick();
      let b = await revisionOf(small);
      for (const started = Date.now(); b.status !== "ready" && b.status !== "failed" && Date.now() - started < 120_000; b = await revisionOf(small)) await sleep(50);
      const a = await revisionOf(big);
      expect(b.status).toBe("ready");
      expect(["extracting", "indexing"]).toContain(a.status);
      // A finishes too, on its own.
      let done = a;
      while (done.status !== "ready" && done.status !== "failed") done = (await sleep(200), await revisionOf(big));
      expect(done).toMatchObject({ status: "ready", pageCount: 5000 });
    } finally {
      worker.stop();
      await worker.kick();
    }
  });
});
