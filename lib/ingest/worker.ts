import "server-only";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db, DbHandle } from "@/lib/db/client";
import { chunks, documents, ingestionJobs, pages, revisionFiles, revisions } from "@/lib/db/schema";
import { toStoredVector, type Embedder } from "@/lib/ai/vectors";
import { newId } from "@/lib/ids";
import { log } from "@/lib/server/log";
import { checkDocumentCards } from "@/lib/study/card-checks";
import { describePages, documentScope, extractAndChunk, isExtractError, type ChunkSettings, type CountTokens } from "@/lib/rag/ingestion";

export interface WorkerDeps {
  countTokens: CountTokens;
  chunkSettings: ChunkSettings;
  embedder: Embedder | null;
  embedBatchSize: number;
  /** Threads PDFium reads a large PDF on; the machine's cores (at most four) when unset. */
  readerThreads?: number;
  /** How long a claimed job stays this worker's without a renewal (INGEST_LEASE_MS); 30 s when unset. */
  leaseMs?: number;
  /** The name this worker holds leases under (INGEST_WORKER_ID); one per process when unset. */
  workerId?: string;
  /** A PDF with more pages fails before a page is read (MAX_PDF_PAGES); 2,000 when unset. */
  maxPages?: number;
  /** A job still running after this long fails with that reason (INGEST_JOB_TIMEOUT_MS); 10 minutes when unset. */
  jobTimeoutMs?: number;
  /** Heap of each PDF reader thread (INGEST_READER_HEAP_MB). */
  readerHeapMb?: number;
  /** Jobs startWorker runs at once in this process (INGEST_CONCURRENCY); 1 when unset. */
  concurrency?: number;
  /** Test hook: called between stages, so a test can stop the work where a crash would. */
  checkpoint?: (stage: "extracted" | "pages_stored" | "chunks_stored" | "embedded") => Promise<void> | void;
}

/** A job is claimed at most this many times; a job whose lease expired on every claim is failed for good. */
const MAX_ATTEMPTS = 3;
const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_MAX_PAGES = 2000;
const DEFAULT_JOB_TIMEOUT_MS = 10 * 60_000;
const INSERT_BATCH = 200;
/** This process's name on the jobs it holds, unless the deps name the worker. */
const PROCESS_WORKER_ID = newId("wrk");

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * A job this worker claimed. `attempts` is the claim's number: together with the owner it fences
 * every write, so even a worker that reclaims its own expired job cannot mix two attempts.
 */
export interface Claim {
  id: string;
  revisionId: string;
  attempts: number;
  owner: string;
  leaseMs: number;
  /** Set once a renewal found the job taken over, or once it was handed back; the work stops at the next stage. */
  lost: boolean;
  /** Set when shutdown handed the job back for the next start. */
  handedBack?: boolean;
}

/**
 * How a running worker is steered from outside: shutdown sets `stopping` (no new claim) and hands
 * the `current` jobs back (one per drain loop); `tick` tells the health check the worker is alive.
 */
export interface WorkerControl {
  stopping: boolean;
  current: Set<Claim>;
  tick: (intervalMs: number) => void;
}

/** The job ran past its time budget: it fails with that reason (the signal's reason, thrown at the next stage). */
class OverTime extends Error {
  constructor(ms: number) {
    super(`Indexing took longer than its ${Math.round(ms / 1000)} s budget. Split the PDF into smaller files.`);
  }
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
 * Takes a job that is queued, or running under an expired lease (its worker died or stalled), in
 * one statement: the database serializes writers, so two workers never claim the same job. Which
 * job is fair across courses: first a course with no job running now (so a second worker, in this
 * process or another, never waits behind one course's long upload), then the course served least
 * recently (round-robin, so ten uploads in one course do not all go before another's one), then
 * the oldest job. A lease left empty by a version without leases counts as expired.
 */
async function claimJob({ client }: DbHandle, { owner, leaseMs }: { owner: string; leaseMs: number }): Promise<Claim | null> {
  const now = Date.now();
  const courseJobs = `FROM ingestion_jobs o JOIN revisions ro ON ro.id = o.revision_id JOIN documents od ON od.id = ro.document_id WHERE od.course_id = d.course_id`;
  const rs = await client.execute({
    sql: `UPDATE ingestion_jobs SET status = 'running', attempts = attempts + 1, started_at = :now, lease_owner = :owner, lease_until = :until
          WHERE id = (SELECT j.id FROM ingestion_jobs j
                      JOIN revisions r ON r.id = j.revision_id JOIN documents d ON d.id = r.document_id
                      WHERE j.status = 'queued' OR (j.status = 'running' AND coalesce(j.lease_until, 0) < :now)
                      ORDER BY (SELECT count(*) ${courseJobs} AND o.status = 'running' AND coalesce(o.lease_until, 0) >= :now),
                               (SELECT coalesce(max(o.started_at), 0) ${courseJobs}),
                               j.created_at, j.rowid
                      LIMIT 1)
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
  // A job handed back by this process is not written to again, even by a write queued before the hand-back.
  if (claim.handedBack) throw new LeaseLost(claim.id);
  return db.transaction(async (tx) => {
    if (claim.handedBack) throw new LeaseLost(claim.id);
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
export async function processQueuedJobs(handle: DbHandle, deps: WorkerDeps, control?: WorkerControl): Promise<number> {
  const lease = leaseSettings(deps);
  let n = 0;
  while (!control?.stopping) {
    const job = await claimJob(handle, lease);
    if (!job) break;
    control?.current.add(job);
    try {
      await runJob(handle, job, deps, control);
    } finally {
      control?.current.delete(job);
    }
    n++;
  }
  return n;
}

/**
 * Gives a running job back, as shutdown does: its partial pages and chunks go, the job is queued
 * again with this attempt not counted (a restart is not a failure), and the revision waits as
 * queued, in one transaction. The next worker to poll (this process after a restart, or another
 * instance) runs it from the start. False when the job was no longer this worker's (it finished).
 */
export async function handBackJob(handle: DbHandle, claim: Claim): Promise<boolean> {
  try {
    await asOwner(handle, claim, async (tx) => {
      await tx.delete(chunks).where(eq(chunks.revisionId, claim.revisionId));
      await tx.delete(pages).where(eq(pages.revisionId, claim.revisionId));
      await tx.update(revisions).set({ status: "queued", progress: 0 }).where(eq(revisions.id, claim.revisionId));
      await tx
        .update(ingestionJobs)
        .set({ status: "queued", attempts: sql`${ingestionJobs.attempts} - 1`, leaseOwner: null, leaseUntil: null, startedAt: null })
        .where(eq(ingestionJobs.id, claim.id));
    });
  } catch (e) {
    if (e instanceof LeaseLost) return false;
    throw e;
  }
  claim.handedBack = true;
  claim.lost = true;
  return true;
}

async function runJob(handle: DbHandle, claim: Claim, deps: WorkerDeps, control?: WorkerControl): Promise<void> {
  const { db } = handle;
  const revisionId = claim.revisionId;
  // The heartbeat keeps the lease while extraction runs without writing; a third of the lease
  // leaves two renewals' slack for a busy database.
  const renewEveryMs = Math.max(50, Math.floor(claim.leaseMs / 3));
  control?.tick(renewEveryMs);
  const heartbeat = setInterval(() => {
    asOwner(handle, claim, async () => {}).then(
      () => control?.tick(renewEveryMs),
      (e) => {
        if (!(e instanceof LeaseLost)) log("error", "ingest_lease_renewal_failed", { jobId: claim.id, error: e });
      },
    );
  }, renewEveryMs);
  heartbeat.unref();
  // The time budget runs from the claim: extraction stops after the page at hand, every later
  // stage checks it before it writes.
  const timeoutMs = deps.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const overTime = new AbortController();
  const budgetTimer = setTimeout(() => overTime.abort(new OverTime(timeoutMs)), timeoutMs);
  budgetTimer.unref();
  // Stage timings for the job's log line; a stage's time runs from the end of the one before.
  const startedAt = performance.now();
  const timings: Record<string, number> = {};
  let mark = startedAt;
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = Math.round(now - mark);
    mark = now;
  };
  const counts = { pages: 0, chunks: 0 };
  let outcome: { status: "done" | "failed" | "handed_back" | "lease_lost"; error?: string } = { status: "done" };
  const checkpoint = async (stage: Parameters<NonNullable<WorkerDeps["checkpoint"]>>[0]) => {
    if (claim.lost) throw new LeaseLost(claim.id);
    await deps.checkpoint?.(stage);
    overTime.signal.throwIfAborted();
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
      budget: { maxPages: deps.maxPages ?? DEFAULT_MAX_PAGES, heapMb: deps.readerHeapMb, signal: overTime.signal },
      onPage: (done, total) => {
        // Progress is a courtesy to the page; write it at most every 10% of the document.
        if (done === total || done - lastReport >= Math.max(1, Math.ceil(total / 10))) {
          lastReport = done;
          void asOwner(handle, claim, (tx) => tx.update(revisions).set({ progress: done, pageCount: total }).where(eq(revisions.id, revisionId))).catch(() => {});
        }
      },
    });
    lap("extract");
    counts.pages = extracted.pageCount;
    counts.chunks = chunked.chunks.length;
    await checkpoint("extracted");

    await asOwner(handle, claim, (tx) =>
      tx
        .update(revisions)
        .set({ status: "indexing", pageCount: extracted.pageCount, progress: extracted.pageCount, scopeTerms: documentScope(extracted.pages, document.title) })
        .where(eq(revisions.id, revisionId)),
    );
    for (let i = 0; i < extracted.pages.length; i += INSERT_BATCH) {
      const batch = extracted.pages.slice(i, i + INSERT_BATCH).map((p) => ({ revisionId, ...p }));
      overTime.signal.throwIfAborted();
      await asOwner(handle, claim, (tx) => tx.insert(pages).values(batch));
    }
    lap("storePages");
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
      overTime.signal.throwIfAborted();
      await asOwner(handle, claim, (tx) => tx.insert(chunks).values(batch));
    }
    lap("storeChunks");
    await checkpoint("chunks_stored");

    if (deps.embedder) {
      await embedRevision(handle, claim, deps.embedder, deps.embedBatchSize);
      lap("embed");
    }
    await checkpoint("embedded");

    const warning = extracted.pagesWithoutText.length
      ? `No selectable text on ${describePages(extracted.pagesWithoutText)}; those pages are not searchable (OCR is not supported).`
      : null;
    await publishRevision(handle, claim, { documentId: document.id, number: revision.number, warning });
    lap("publish");
    // After the publish, outside its transaction: study cards whose quote this revision removed
    // are flagged. The job is already done; a failure here is logged, never an ingestion error.
    await checkDocumentCards(db, { documentId: document.id }).catch((e) => log("error", "study_card_check_failed", { documentId: document.id, error: e }));
  } catch (e) {
    if (e instanceof LeaseLost) {
      outcome = claim.handedBack ? { status: "handed_back" } : { status: "lease_lost", error: e.message };
      return;
    }
    const message = isExtractError(e) || e instanceof OverTime ? e.message : `Indexing failed: ${(e as Error).message}`;
    outcome = { status: "failed", error: message };
    await failJob(handle, claim, message).catch((failure) => {
      if (!(failure instanceof LeaseLost)) throw failure;
    });
  } finally {
    clearInterval(heartbeat);
    clearTimeout(budgetTimer);
    control?.tick(renewEveryMs);
    // The job's id is its trace id: the revision, the upload's response and this line all name it.
    log(outcome.status === "failed" ? "warn" : "info", "ingest_job", {
      jobId: claim.id,
      revisionId,
      attempt: claim.attempts,
      owner: claim.owner,
      ...outcome,
      ...counts,
      durationMs: Math.round(performance.now() - startedAt),
      timings,
    });
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

export interface StartedWorker {
  kick: () => Promise<void>;
  /**
   * Stops polling and claiming, and hands every running job back (see handBackJob); resolves once
   * that is written. The jobs' reader threads may still be busy; nothing they produce is stored.
   */
  stop: () => Promise<void>;
}

/**
 * The in-process worker: `concurrency` drain loops (INGEST_CONCURRENCY), each woken when kicked
 * and on a slow poll and running one job at a time. Several loops let a course's small upload run
 * beside another course's long one; claimJob gives each idle loop a course with nothing running.
 * `onTick` hears each poll and each lease renewal, with the interval the next one is due in.
 */
export function startWorker(handle: DbHandle, deps: WorkerDeps, { pollMs = 2000, onTick = (_intervalMs: number) => {} } = {}): StartedWorker {
  const { owner, leaseMs } = leaseSettings(deps);
  const concurrency = Math.max(1, deps.concurrency ?? 1);
  log("info", "ingest_worker_started", { owner, leaseMs, pollMs, concurrency });
  const control: WorkerControl = { stopping: false, current: new Set(), tick: onTick };
  const loops = Array.from({ length: concurrency }, () => ({ running: null as Promise<void> | null, again: false }));
  const wake = (loop: (typeof loops)[number]): Promise<void> => {
    if (control.stopping) return Promise.resolve();
    if (loop.running) {
      loop.again = true;
      return loop.running;
    }
    loop.running = (async () => {
      do {
        loop.again = false;
        await processQueuedJobs(handle, deps, control).catch((e) => log("error", "ingest_worker_error", { error: e }));
      } while (loop.again && !control.stopping);
    })().finally(() => {
      loop.running = null;
    });
    return loop.running;
  };
  const kick = () => Promise.all(loops.map(wake)).then(() => {});
  const timer = setInterval(() => {
    // While a job runs its lease renewals are the ticks; the poll only says the worker is idle and alive.
    if (loops.every((l) => !l.running)) onTick(pollMs);
    void kick();
  }, pollMs);
  timer.unref();
  onTick(pollMs);
  void kick();
  return {
    kick,
    stop: async () => {
      control.stopping = true;
      clearInterval(timer);
      for (const claim of [...control.current]) {
        if (await handBackJob(handle, claim)) log("info", "ingest_job_handed_back", { jobId: claim.id, revisionId: claim.revisionId, owner });
      }
    },
  };
}
