import "server-only";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db, DbHandle } from "@/lib/db/client";
import { chunks, documents, ingestionJobs, pages, revisionFiles, revisions } from "@/lib/db/schema";
import { toStoredVector, type Embedder } from "@/lib/ai/providers";
import { newId } from "@/lib/ids";
import { checkDocumentCards } from "@/lib/study/decks";
import { describePages, documentScope, extractAndChunk, isExtractError, type ChunkSettings, type CountTokens } from "@/lib/rag/pipeline";

export interface WorkerDeps {
  countTokens: CountTokens;
  chunkSettings: ChunkSettings;
  embedder: Embedder | null;
  embedBatchSize: number;
  /** Threads pdf.js reads a large PDF on; the machine's cores (at most four) when unset. */
  readerThreads?: number;
  /** How long a claimed job stays this worker's without a renewal (INGEST_LEASE_MS); 30 s when unset. */
  leaseMs?: number;
  /** The name this worker holds leases under (INGEST_WORKER_ID); one per process when unset. */
  workerId?: string;
  /** Test hook: called between stages, so a test can stop the work where a crash would. */
  checkpoint?: (stage: "extracted" | "pages_stored" | "chunks_stored" | "embedded") => Promise<void> | void;
}

/** A job is claimed at most this many times; a job whose lease expired on every claim is failed for good. */
const MAX_ATTEMPTS = 3;
const DEFAULT_LEASE_MS = 30_000;
const INSERT_BATCH = 200;
/** This process's name on the jobs it holds, unless the deps name the worker. */
const PROCESS_WORKER_ID = newId("wrk");

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * A job this worker claimed. `attempts` is the claim's number: together with the owner it fences
 * every write, so even a worker that reclaims its own expired job cannot mix two attempts.
 */
interface Claim {
  id: string;
  revisionId: string;
  attempts: number;
  owner: string;
  leaseMs: number;
  /** Set once a renewal found the job taken over; the work stops at the next stage. */
  lost: boolean;
}

/** Another worker took the job over after this worker's lease expired: stop without writing. */
class LeaseLost extends Error {
  constructor(jobId: string) {
    super(`The lease on ingestion job ${jobId} passed to another worker.`);
  }
}

function leaseSettings(deps: WorkerDeps): { owner: string; leaseMs: number } {
  return { owner: deps.workerId ?? PROCESS_WORKER_ID, leaseMs: deps.leaseMs ?? DEFAULT_LEASE_MS };
}

/**
 * Takes the oldest job that is queued, or running under an expired lease (its worker died or
 * stalled), in one statement: the database serializes writers, so two workers never claim the same
 * job. A lease left empty by a version without leases counts as expired.
 */
async function claimJob({ client }: DbHandle, { owner, leaseMs }: { owner: string; leaseMs: number }): Promise<Claim | null> {
  const now = Date.now();
  const rs = await client.execute({
    sql: `UPDATE ingestion_jobs SET status = 'running', attempts = attempts + 1, started_at = :now, lease_owner = :owner, lease_until = :until
          WHERE id = (SELECT id FROM ingestion_jobs
                      WHERE status = 'queued' OR (status = 'running' AND coalesce(lease_until, 0) < :now)
                      ORDER BY created_at, rowid LIMIT 1)
          RETURNING id, revision_id, attempts`,
    args: { now, owner, until: now + leaseMs },
  });
  const row = rs.rows[0];
  return row ? { id: String(row.id), revisionId: String(row.revision_id), attempts: Number(row.attempts), owner, leaseMs, lost: false } : null;
}

/**
 * Runs `write` in one transaction that first renews the claim's lease. When the job has passed to
 * another worker nothing is written and LeaseLost is thrown; since the database serializes
 * writers, no write of a stale worker can land after the new owner's claim and its clean-up.
 */
async function asOwner<T>({ db }: DbHandle, claim: Claim, write: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const held = await tx
      .update(ingestionJobs)
      .set({ leaseUntil: new Date(Date.now() + claim.leaseMs) })
      .where(and(eq(ingestionJobs.id, claim.id), eq(ingestionJobs.status, "running"), eq(ingestionJobs.leaseOwner, claim.owner), eq(ingestionJobs.attempts, claim.attempts)))
      .returning({ id: ingestionJobs.id });
    if (held.length === 0) {
      claim.lost = true;
      throw new LeaseLost(claim.id);
    }
    return write(tx);
  });
}

/** Runs queued jobs, and jobs whose lease expired, until none is left; returns how many were claimed. */
export async function processQueuedJobs(handle: DbHandle, deps: WorkerDeps): Promise<number> {
  const lease = leaseSettings(deps);
  let n = 0;
  for (let job = await claimJob(handle, lease); job; job = await claimJob(handle, lease)) {
    await runJob(handle, job, deps);
    n++;
  }
  return n;
}

async function runJob(handle: DbHandle, claim: Claim, deps: WorkerDeps): Promise<void> {
  const { db } = handle;
  const revisionId = claim.revisionId;
  // The heartbeat keeps the lease while extraction runs without writing; a third of the lease
  // leaves two renewals' slack for a busy database.
  const heartbeat = setInterval(() => {
    asOwner(handle, claim, async () => {}).catch((e) => {
      if (!(e instanceof LeaseLost)) console.error(`[ingest] renewing the lease on job ${claim.id} failed:`, e);
    });
  }, Math.max(50, Math.floor(claim.leaseMs / 3)));
  heartbeat.unref();
  const checkpoint = async (stage: Parameters<NonNullable<WorkerDeps["checkpoint"]>>[0]) => {
    if (claim.lost) throw new LeaseLost(claim.id);
    await deps.checkpoint?.(stage);
  };
  try {
    if (claim.attempts > MAX_ATTEMPTS) {
      await failJob(handle, claim, "Ingestion was interrupted repeatedly; upload the file again.");
      return;
    }
    const revision = await db.query.revisions.findFirst({ where: eq(revisions.id, revisionId) });
    const file = await db.query.revisionFiles.findFirst({ where: eq(revisionFiles.revisionId, revisionId) });
    const document = revision && (await db.query.documents.findFirst({ where: eq(documents.id, revision.documentId) }));
    if (!revision || !file || !document) throw new Error("The uploaded file is missing.");

    // Leftovers of an earlier attempt (a worker that died or lost its lease) go first, so a
    // reclaimed job never duplicates rows.
    await asOwner(handle, claim, async (tx) => {
      await tx.delete(chunks).where(eq(chunks.revisionId, revisionId));
      await tx.delete(pages).where(eq(pages.revisionId, revisionId));
      await tx.update(revisions).set({ status: "extracting", progress: 0, error: null }).where(eq(revisions.id, revisionId));
    });

    let lastReport = 0;
    const { extracted, chunked } = await extractAndChunk(Uint8Array.from(file.bytes), {
      countTokens: deps.countTokens,
      chunkSettings: deps.chunkSettings,
      readerThreads: deps.readerThreads,
      onPage: (done, total) => {
        // Progress is a courtesy to the page; write it at most every 10% of the document.
        if (done === total || done - lastReport >= Math.max(1, Math.ceil(total / 10))) {
          lastReport = done;
          void asOwner(handle, claim, (tx) => tx.update(revisions).set({ progress: done, pageCount: total }).where(eq(revisions.id, revisionId))).catch(() => {});
        }
      },
    });
    await checkpoint("extracted");

    await asOwner(handle, claim, (tx) =>
      tx
        .update(revisions)
        .set({ status: "indexing", pageCount: extracted.pageCount, progress: extracted.pageCount, scopeTerms: documentScope(extracted.pages, document.title) })
        .where(eq(revisions.id, revisionId)),
    );
    for (let i = 0; i < extracted.pages.length; i += INSERT_BATCH) {
      const batch = extracted.pages.slice(i, i + INSERT_BATCH).map((p) => ({ revisionId, ...p }));
      await asOwner(handle, claim, (tx) => tx.insert(pages).values(batch));
    }
    await checkpoint("pages_stored");

    const rows = chunked.chunks.map((c) => ({
      id: `${revisionId}-p${c.pdfPage}-c${c.ordinal}`,
      revisionId,
      documentId: document.id,
      courseId: document.courseId,
      ...c,
    }));
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      const batch = rows.slice(i, i + INSERT_BATCH);
      await asOwner(handle, claim, (tx) => tx.insert(chunks).values(batch));
    }
    await checkpoint("chunks_stored");

    if (deps.embedder) await embedRevision(handle, claim, deps.embedder, deps.embedBatchSize);
    await checkpoint("embedded");

    const warning = extracted.pagesWithoutText.length
      ? `No selectable text on ${describePages(extracted.pagesWithoutText)}; those pages are not searchable (OCR is not supported).`
      : null;
    await publishRevision(handle, claim, { documentId: document.id, number: revision.number, warning });
    // After the publish, outside its transaction: study cards whose quote this revision removed
    // are flagged. The job is already done; a failure here is logged, never an ingestion error.
    await checkDocumentCards(db, { documentId: document.id }).catch((e) => console.error(`[study] checking cards of ${document.id} failed:`, e));
  } catch (e) {
    if (e instanceof LeaseLost) {
      console.warn(`[ingest] ${e.message} This worker stopped without publishing.`);
      return;
    }
    const message = isExtractError(e) ? e.message : `Indexing failed: ${(e as Error).message}`;
    await failJob(handle, claim, message).catch((failure) => {
      if (!(failure instanceof LeaseLost)) throw failure;
    });
  } finally {
    clearInterval(heartbeat);
  }
}

async function embedRevision(handle: DbHandle, claim: Claim, embedder: Embedder, batchSize: number): Promise<void> {
  const rows = await handle.db
    .select({ seq: chunks.seq, text: chunks.text })
    .from(chunks)
    .where(eq(chunks.revisionId, claim.revisionId))
    .orderBy(asc(chunks.seq));
  for (let i = 0; i < rows.length; i += batchSize) {
    const batch = rows.slice(i, i + batchSize);
    const vectors = await embedder.embed(batch.map((r) => r.text));
    await asOwner(handle, claim, async (tx) => {
      for (const [j, r] of batch.entries()) {
        await tx.run(sql`INSERT OR REPLACE INTO chunk_vectors (chunk_seq, model, embedding) VALUES (${r.seq}, ${embedder.model}, vector32(${toStoredVector(vectors[j])}))`);
      }
    });
  }
}

/**
 * Makes the revision ready and, in the same transaction, current — unless a higher-numbered
 * revision of the document is already current (two uploads racing: the later number wins) — and
 * the job done. Only the lease's holder gets here, so a job is published once.
 */
async function publishRevision(
  handle: DbHandle,
  claim: Claim,
  { documentId, number, warning }: { documentId: string; number: number; warning: string | null },
): Promise<void> {
  await asOwner(handle, claim, async (tx) => {
    await tx.update(revisions).set({ status: "ready", readyAt: new Date(), warning, error: null }).where(eq(revisions.id, claim.revisionId));
    await tx
      .update(documents)
      .set({ currentRevisionId: claim.revisionId })
      .where(
        and(
          eq(documents.id, documentId),
          // A document deleted while this revision was being indexed stays deleted.
          isNull(documents.deletedAt),
          sql`coalesce((SELECT number FROM revisions WHERE id = ${documents.currentRevisionId}), 0) < ${number}`,
        ),
      );
    await tx.update(ingestionJobs).set({ status: "done", finishedAt: new Date(), error: null }).where(eq(ingestionJobs.id, claim.id));
  });
}

/** Fails the job and its revision, without partial pages or chunks, if this worker still holds it. */
async function failJob(handle: DbHandle, claim: Claim, message: string): Promise<void> {
  await asOwner(handle, claim, async (tx) => {
    await tx.delete(chunks).where(eq(chunks.revisionId, claim.revisionId));
    await tx.delete(pages).where(eq(pages.revisionId, claim.revisionId));
    await tx.update(revisions).set({ status: "failed", error: message }).where(eq(revisions.id, claim.revisionId));
    await tx.update(ingestionJobs).set({ status: "failed", error: message, finishedAt: new Date() }).where(eq(ingestionJobs.id, claim.id));
  });
}

/** The in-process worker: drains the queue when kicked and on a slow poll, one drain at a time. */
export function startWorker(handle: DbHandle, deps: WorkerDeps, { pollMs = 2000 } = {}) {
  const { owner, leaseMs } = leaseSettings(deps);
  console.log(`[ingest] worker ${owner} started (lease ${leaseMs} ms)`);
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
