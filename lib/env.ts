import { z } from "zod";

/** The only reader of process.env: everything configurable is validated here once. */
const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().min(1).default("file:./data/study.db"),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  /** How long an embedded database waits for another process's lock before answering "busy". */
  DATABASE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  /** Chat model name; when unset the built-in extractive generator answers. */
  GENERATION_MODEL: z.string().optional(),
  /** Sampling temperature for the model, 0–0.2 so it stays close to the passages. */
  GENERATION_TEMPERATURE: z.coerce.number().min(0).max(0.2).default(0),
  /** The model's context window in tokens (input + output), for packing. */
  GENERATION_CONTEXT_WINDOW: z.coerce.number().int().min(512).default(8192),
  /** Evidence gate: the share of a requested part's terms a passage must contain (calibrated; see README). */
  /** Overrides the fitted answer floor (a probability); unset = the floor stored with the fitted weights. */
  ASK_MIN_SCORE: z.coerce.number().min(0).max(1).optional(),
  GENERATION_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Embedding model name; when unset retrieval is BM25 alone and no vectors are computed. */
  EMBEDDING_MODEL: z.string().optional(),
  EMBEDDING_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  /** Upload limit in bytes (default 50 MB). */
  MAX_UPLOAD_BYTES: z.coerce.number().int().min(1).default(50 * 1024 * 1024),
  CHUNK_TARGET_TOKENS: z.coerce.number().int().min(20).max(2000).default(160),
  CHUNK_OVERLAP_TOKENS: z.coerce.number().int().min(0).max(500).default(32),
  /** Per-user limits per minute. */
  RATE_LIMIT_ASK_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_UPLOAD_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** Answers computed at once per process; the rest wait first come, first served (README "Load"). */
  ANSWER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Answers that may wait for a slot; past this a question gets 503 with Retry-After at once. */
  ANSWER_QUEUE_LIMIT: z.coerce.number().int().min(0).max(10_000).default(64),
  /** A waiting answer that has not started within this long gets 503 with Retry-After. */
  ANSWER_QUEUE_WAIT_MS: z.coerce.number().int().min(10).max(60_000).default(750),
  /** Seed the demo course into an empty database at start ("0" to disable). */
  SEED_DEMO: z.enum(["0", "1"]).default("1"),
  /** Run the ingestion worker inside the server process ("0" for tests that drive it by hand). */
  INGEST_WORKER: z.enum(["0", "1"]).default("1"),
  /** How long a worker holds a claimed job without renewing it; after that any process may take it over. */
  INGEST_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /** The name this process's worker holds leases under (logs, tests); a fresh random id per process when unset. */
  INGEST_WORKER_ID: z.string().min(1).max(100).optional(),
  /** Study cards per page at most in a generated deck (spreads a deck over the material). */
  STUDY_CARDS_PER_PAGE: z.coerce.number().int().min(1).max(20).default(4),
  /** Tests only: "1" lets a request's x-study-now header set the scheduler's clock (Playwright's page.clock). Never in production. */
  STUDY_TEST_CLOCK: z.enum(["0", "1"]).default("0"),
  /** Browser for Playwright: Debian's chromium by default, overridable on other machines. */
  CHROMIUM_PATH: z.string().default("/usr/bin/chromium"),
  /** Port of the e2e server; the second instance of the multi-process test takes the next one. Lets checkouts run e2e side by side. */
  E2E_PORT: z.coerce.number().int().min(1024).max(65_000).default(3100),
  CI: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

function load(): Env {
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export const env: Env = load();
