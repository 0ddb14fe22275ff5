import "server-only";
import { countTokens } from "@/lib/ai/tokenizer";
import { createEmbedder } from "@/lib/ai/providers";
import { env } from "@/lib/env";
import type { WorkerDeps } from "./worker";

/** The worker's settings as the environment configures them. */
export function workerDepsFromEnv(): WorkerDeps {
  return {
    countTokens,
    chunkSettings: { targetTokens: env.CHUNK_TARGET_TOKENS, overlapTokens: env.CHUNK_OVERLAP_TOKENS },
    embedder: createEmbedder(),
    embedBatchSize: env.EMBEDDING_BATCH_SIZE,
    leaseMs: env.INGEST_LEASE_MS,
    workerId: env.INGEST_WORKER_ID,
    maxPages: env.MAX_PDF_PAGES,
    jobTimeoutMs: env.INGEST_JOB_TIMEOUT_MS,
    readerHeapMb: env.INGEST_READER_HEAP_MB,
    concurrency: env.INGEST_CONCURRENCY,
  };
}
