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
  /**
   * Failed sign-ins allowed per hour for one account from one address (a quarter of it per
   * minute), and from one address over all accounts. Success is never counted.
   */
  RATE_LIMIT_SIGN_IN_FAILURES_PER_HOUR: z.coerce.number().int().min(4).default(20),
  RATE_LIMIT_SIGN_IN_ADDRESS_FAILURES_PER_HOUR: z.coerce.number().int().min(4).default(200),
  /** Sign-up requests per address per hour, and join-by-code attempts per user per hour. */
  RATE_LIMIT_SIGN_UP_PER_HOUR: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_JOIN_PER_HOUR: z.coerce.number().int().min(1).default(30),
  /** Answers computed at once per process; the rest wait first come, first served (README "Load"). */
  ANSWER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Answers that may wait for a slot; past this a question gets 503 with Retry-After at once. */
  ANSWER_QUEUE_LIMIT: z.coerce.number().int().min(0).max(10_000).default(64),
  /** A waiting answer that has not started within this long gets 503 with Retry-After. */
  ANSWER_QUEUE_WAIT_MS: z.coerce.number().int().min(10).max(60_000).default(750),
  /** Server processes sharing the port and the database (`npm start`, server.mjs): one uses one core (README "Load"). */
  SERVER_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  /** A major garbage collection after this much busy event-loop time, so libSQL's per-statement native memory is given back (lib/server/native-memory.ts); 0 leaves it to V8. */
  NATIVE_GC_BUSY_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  /** Seed the demo course into an empty database at start ("0" to disable). */
  SEED_DEMO: z.enum(["0", "1"]).default("1"),
  /** Run the ingestion worker inside the server process ("0" for tests that drive it by hand). */
  INGEST_WORKER: z.enum(["0", "1"]).default("1"),
  /** A PDF with more pages is refused before any page is read. */
  MAX_PDF_PAGES: z.coerce.number().int().min(1).default(2000),
  /** An ingestion job still running after this long fails with that reason. */
  INGEST_JOB_TIMEOUT_MS: z.coerce.number().int().min(1000).default(600_000),
  /** Memory of each PDF reader thread (PDFium's WebAssembly heap and the thread's JavaScript heap, each capped at this): a PDF that needs more fails its job, the server stays up. */
  INGEST_READER_HEAP_MB: z.coerce.number().int().min(16).max(16_384).default(1024),
  /** Ingestion jobs one process runs at once; idle workers take courses with nothing running first. */
  INGEST_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** How long a worker holds a claimed job without renewing it; after that any process may take it over. */
  INGEST_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  /** The name this process's worker holds leases under (logs, tests); a fresh random id per process when unset. */
  INGEST_WORKER_ID: z.string().min(1).max(100).optional(),
  /**
   * How many reverse proxies stand between clients and the app. 0: X-Forwarded-* headers are the
   * client's own words and ignored (the Host header names the site). N ≥ 1: X-Forwarded-Host and
   * -Proto are the nearest proxy's, and the client's address is the Nth entry from the right of
   * X-Forwarded-For.
   */
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  /** The app is reached over https (directly or through a TLS proxy): send HSTS, mark cookies Secure. */
  HTTPS: z.enum(["0", "1"]).default("0"),
  /**
   * On SIGTERM, how long in-flight answers may take to finish before they are cancelled, and the
   * bound on the whole shutdown (README "Deploying").
   */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
  /** Put the question's text on each answer's log line ("true"); by default logs never hold it. */
  LOG_QUESTIONS: z.enum(["true", "false"]).default("false"),
  /** Log lines as JSON or for people; unset = for people when stdout is a terminal, JSON otherwise. */
  LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
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
