/**
 * The environment of the e2e servers: the one playwright.config.ts starts, and the second
 * instance e2e/instances.spec.ts starts beside it on the same database file.
 */
export const E2E_DATABASE_URL = "file:./data/e2e/study.db";
/** The ingestion worker of the server playwright.config.ts starts. */
export const E2E_MAIN_WORKER_ID = "wrk_e2e_main";

export function e2eServerEnv(workerId: string): Record<string, string> {
  return {
    DATABASE_URL: E2E_DATABASE_URL,
    SEED_DEMO: "1",
    INGEST_WORKER: "1",
    // Short, so a job held by a killed instance is taken over within seconds.
    INGEST_LEASE_MS: "4000",
    // One drain loop per server: with the short lease, two loops' synchronous work on one loaded
    // event loop can delay a renewal past it, and a live job is then taken over (run twice). The
    // drain loops have their own test (lib/ingest/budget.test.ts).
    INGEST_CONCURRENCY: "1",
    INGEST_WORKER_ID: workerId,
    NEXT_TELEMETRY_DISABLED: "1",
    // The specs ask and upload faster than a person; the limits have their own tests.
    RATE_LIMIT_ASK_PER_MINUTE: "1000",
    RATE_LIMIT_UPLOAD_PER_MINUTE: "1000",
    RATE_LIMIT_SIGN_UP_PER_HOUR: "1000",
    // The study specs move the scheduler's clock with Playwright's page.clock.
    STUDY_TEST_CLOCK: "1",
  };
}
