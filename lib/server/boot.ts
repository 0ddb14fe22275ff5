import "server-only";
import { count } from "drizzle-orm";
import { countTokens } from "@/lib/ai/tokenizer";
import { closeDb, getDb } from "@/lib/db/client";
import { courses } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { preloadWordNet } from "@/lib/rag/text/wordnet";
import { workerDepsFromEnv } from "@/lib/ingest/deps";
import { startWorker, type StartedWorker } from "@/lib/ingest/worker";
import { lifecycle } from "./lifecycle";
import { log } from "./log";
import { startNativeCollector } from "./native-memory";
import { startRequestLog } from "./request-log";
import { DEMO_ACCOUNTS, seedDemoCourse } from "./seed";

/** The worker, on globalThis: the upload route (another bundle than this boot code) kicks it. */
const KEY = Symbol.for("study-assistant.worker");
const holder = globalThis as typeof globalThis & { [KEY]?: StartedWorker };

/** Wakes the worker after an upload so ingestion starts at once rather than on the next poll. */
export function kickWorker(): void {
  void holder[KEY]?.kick();
}

export async function boot(): Promise<void> {
  startRequestLog();
  if (env.NATIVE_GC_BUSY_MS > 0) startNativeCollector({ busyMs: env.NATIVE_GC_BUSY_MS });
  // The tokenizer parses its rank file on first use (~1 s), WordNet its index (~0.3 s): pay that at start, not on a first question.
  countTokens("warm up");
  preloadWordNet();
  const handle = await getDb().catch((e): never => {
    // A database from a newer version (or one that cannot be opened): say why and do not serve.
    log("error", "start_refused", { error: isAppError(e) ? e.message : e });
    process.exit(1);
  });
  if (env.SEED_DEMO === "1") {
    const [{ n }] = await handle.db.select({ n: count() }).from(courses);
    if (n === 0) {
      const { slug, joinCode } = await seedDemoCourse(handle);
      console.log(
        [
          `[demo] seeded the demo course /courses/${slug} (join code ${joinCode}). Sign in as`,
          `[demo]   instructor: ${DEMO_ACCOUNTS.instructor.email} / ${DEMO_ACCOUNTS.instructor.password}`,
          `[demo]   student:    ${DEMO_ACCOUNTS.student.email} / ${DEMO_ACCOUNTS.student.password}`,
        ].join("\n"),
      );
    }
  }
  // No recovery step: a job left running by a dead process (this one before a restart, or
  // another instance) is reclaimed by whichever worker polls after its lease expires; a job
  // handed back at shutdown is queued again and taken at once.
  if (env.INGEST_WORKER === "1") {
    holder[KEY] = startWorker(handle, workerDepsFromEnv(), { onTick: (intervalMs) => lifecycle.reportWorker({ lastTickAt: Date.now(), intervalMs }) });
  }
  takeOverSignals(async () => {
    // Whatever hangs, the process is gone shortly after the bound.
    setTimeout(() => {
      log("error", "shutdown_timed_out", { boundMs: env.SHUTDOWN_TIMEOUT_MS });
      process.exit(1);
    }, env.SHUTDOWN_TIMEOUT_MS + 1000).unref();
    const ok = await lifecycle.shutdown({
      boundMs: env.SHUTDOWN_TIMEOUT_MS,
      stopWorker: async () => holder[KEY]?.stop(),
      closeDb: () => closeDb(handle),
      report: (event, fields) => log("info", event, fields),
    });
    process.exit(ok ? 0 : 1);
  });
}

/**
 * SIGTERM (a container stop, systemd, a rolling deploy) and SIGINT (Ctrl-C) start the graceful
 * shutdown. Next.js's own handler closes the listening socket, waits for every open request
 * and exits 143, so new questions would be refused by a closed port, not a 503 with
 * Retry-After; it is registered before this hook runs and is replaced here. A repeated signal
 * (a terminal's Ctrl-C reaches npm and the server both) is ignored: the bound ends the shutdown.
 */
function takeOverSignals(onStop: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      log("info", "signal", { signal });
      void onStop();
    });
  }
}
