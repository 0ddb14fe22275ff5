import "server-only";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { DbHandle } from "@/lib/db/client";
import { chunks, documents, ingestionJobs, pages, revisionFiles, revisions } from "@/lib/db/schema";
import { toStoredVector, type Embedder } from "@/lib/ai/providers";
import { describePages, documentScope, extractAndChunk, isExtractError, type ChunkSettings, type CountTokens } from "@/lib/rag/pipeline";

export interface WorkerDeps {
  countTokens: CountTokens;
  chunkSettings: ChunkSettings;
  embedder: Embedder | null;
  embedBatchSize: number;
  /** Threads pdf.js reads a large PDF on; the machine's cores (at most four) when unset. */
  readerThreads?: number;
  /** Test hook: called between stages, so a test can stop the work where a crash would. */
  checkpoint?: (stage: "extracted" | "pages_stored" | "chunks_stored" | "embedded") => Promise<void> | void;
}

/** A job is tried this many times across restarts before it is failed for good. */
const MAX_ATTEMPTS = 3;
const INSERT_BATCH = 200;

/**
 * After a restart: jobs left "running" by a dead process go back to the queue (or fail after
 * MAX_ATTEMPTS). Their partial pages and chunks are removed when the job runs again, and the
 * previous revision stays current throughout because currency only changes in the final step.
 */
export async function recoverInterruptedJobs({ db }: DbHandle): Promise<number> {
  const stuck = await db.select().from(ingestionJobs).where(eq(ingestionJobs.status, "running"));
  for (const job of stuck) {
    if (job.attempts >= MAX_ATTEMPTS) {
      await failJob({ db }, job.id, job.revisionId, "Ingestion was interrupted repeatedly; upload the file again.");
    } else {
      await db.update(ingestionJobs).set({ status: "queued" }).where(eq(ingestionJobs.id, job.id));
      await db.update(revisions).set({ status: "queued", progress: 0 }).where(eq(revisions.id, job.revisionId));
    }
  }
  return stuck.length;
}

/** Takes the oldest queued job atomically, so two workers never run the same one. */
async function claimJob({ client }: DbHandle): Promise<{ id: string; revisionId: string } | null> {
  const rs = await client.execute({
    sql: `UPDATE ingestion_jobs SET status = 'running', attempts = attempts + 1, started_at = ?
          WHERE id = (SELECT id FROM ingestion_jobs WHERE status = 'queued' ORDER BY created_at, rowid LIMIT 1)
          RETURNING id, revision_id`,
    args: [Date.now()],
  });
  const row = rs.rows[0];
  return row ? { id: String(row.id), revisionId: String(row.revision_id) } : null;
}

/** Runs queued jobs until none is left; returns how many ran. */
export async function processQueuedJobs(handle: DbHandle, deps: WorkerDeps): Promise<number> {
  let n = 0;
  for (let job = await claimJob(handle); job; job = await claimJob(handle)) {
    await runJob(handle, job, deps);
    n++;
  }
  return n;
}

async function runJob(handle: DbHandle, job: { id: string; revisionId: string }, deps: WorkerDeps): Promise<void> {
  const { db } = handle;
  const revisionId = job.revisionId;
  try {
    const revision = await db.query.revisions.findFirst({ where: eq(revisions.id, revisionId) });
    const file = await db.query.revisionFiles.findFirst({ where: eq(revisionFiles.revisionId, revisionId) });
    const document = revision && (await db.query.documents.findFirst({ where: eq(documents.id, revision.documentId) }));
    if (!revision || !file || !document) throw new Error("The uploaded file is missing.");

    // Leftovers of an interrupted attempt go first, so a resumed job never duplicates rows.
    await db.delete(chunks).where(eq(chunks.revisionId, revisionId));
    await db.delete(pages).where(eq(pages.revisionId, revisionId));
    await db.update(revisions).set({ status: "extracting", progress: 0, error: null }).where(eq(revisions.id, revisionId));

    let lastReport = 0;
    const { extracted, chunked } = await extractAndChunk(Uint8Array.from(file.bytes), {
      countTokens: deps.countTokens,
      chunkSettings: deps.chunkSettings,
      readerThreads: deps.readerThreads,
      onPage: (done, total) => {
        // Progress is a courtesy to the page; write it at most every 10% of the document.
        if (done === total || done - lastReport >= Math.max(1, Math.ceil(total / 10))) {
          lastReport = done;
          void db.update(revisions).set({ progress: done, pageCount: total }).where(eq(revisions.id, revisionId)).catch(() => {});
        }
      },
    });
    await deps.checkpoint?.("extracted");

    await db
      .update(revisions)
      .set({ status: "indexing", pageCount: extracted.pageCount, progress: extracted.pageCount, scopeTerms: documentScope(extracted.pages, document.title) })
      .where(eq(revisions.id, revisionId));
    for (let i = 0; i < extracted.pages.length; i += INSERT_BATCH) {
      await db.insert(pages).values(extracted.pages.slice(i, i + INSERT_BATCH).map((p) => ({ revisionId, ...p })));
    }
    await deps.checkpoint?.("pages_stored");

    const rows = chunked.chunks.map((c) => ({
      id: `${revisionId}-p${c.pdfPage}-c${c.ordinal}`,
      revisionId,
      documentId: document.id,
      courseId: document.courseId,
      ...c,
    }));
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await db.insert(chunks).values(rows.slice(i, i + INSERT_BATCH));
    }
    await deps.checkpoint?.("chunks_stored");

    if (deps.embedder) await embedRevision(handle, revisionId, deps.embedder, deps.embedBatchSize);
    await deps.checkpoint?.("embedded");

    const warning = extracted.pagesWithoutText.length
      ? `No selectable text on ${describePages(extracted.pagesWithoutText)}; those pages are not searchable (OCR is not supported).`
      : null;
    await publishRevision(handle, { revisionId, documentId: document.id, number: revision.number, warning });
    await db.update(ingestionJobs).set({ status: "done", finishedAt: new Date(), error: null }).where(eq(ingestionJobs.id, job.id));
  } catch (e) {
    const message = isExtractError(e) ? e.message : `Indexing failed: ${(e as Error).message}`;
    await db.delete(chunks).where(eq(chunks.revisionId, revisionId));
    await db.delete(pages).where(eq(pages.revisionId, revisionId));
    await failJob(handle, job.id, revisionId, message);
  }
}

async function embedRevision({ db, client }: DbHandle, revisionId: string, embedder: Embedder, batchSize: number): Promise<void> {
  const rows = await db.select({ seq: chunks.seq, text: chunks.text }).from(chunks).where(eq(chunks.revisionId, revisionId)).orderBy(asc(chunks.seq));
  for (let i = 0; i < rows.length; i += batchSize) {
    const batch = rows.slice(i, i + batchSize);
    const vectors = await embedder.embed(batch.map((r) => r.text));
    await client.batch(
      batch.map((r, j) => ({
        sql: "INSERT OR REPLACE INTO chunk_vectors (chunk_seq, model, embedding) VALUES (?, ?, vector32(?))",
        args: [r.seq, embedder.model, toStoredVector(vectors[j])],
      })),
      "write",
    );
  }
}

/**
 * Makes the revision ready and, in the same transaction, current — unless a higher-numbered
 * revision of the document is already current (two uploads racing: the later number wins).
 */
async function publishRevision(
  { db }: DbHandle,
  { revisionId, documentId, number, warning }: { revisionId: string; documentId: string; number: number; warning: string | null },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(revisions).set({ status: "ready", readyAt: new Date(), warning, error: null }).where(eq(revisions.id, revisionId));
    await tx
      .update(documents)
      .set({ currentRevisionId: revisionId })
      .where(
        and(
          eq(documents.id, documentId),
          // A document deleted while this revision was being indexed stays deleted.
          isNull(documents.deletedAt),
          sql`coalesce((SELECT number FROM revisions WHERE id = ${documents.currentRevisionId}), 0) < ${number}`,
        ),
      );
  });
}

async function failJob({ db }: Pick<DbHandle, "db">, jobId: string, revisionId: string, message: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(revisions).set({ status: "failed", error: message }).where(eq(revisions.id, revisionId));
    await tx.update(ingestionJobs).set({ status: "failed", error: message, finishedAt: new Date() }).where(eq(ingestionJobs.id, jobId));
  });
}

/** The in-process worker: drains the queue when kicked and on a slow poll, one drain at a time. */
export function startWorker(handle: DbHandle, deps: WorkerDeps, { pollMs = 2000 } = {}) {
  let running: Promise<void> | null = null;
  let again = false;
  const kick = () => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await processQueuedJobs(handle, deps).catch((e) => console.error("[ingest] worker error:", e));
      } while (again);
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(kick, pollMs);
  timer.unref();
  void kick();
  return { kick, stop: () => clearInterval(timer) };
}
