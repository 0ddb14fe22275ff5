import "server-only";
import { count } from "drizzle-orm";
import { countTokens } from "@/lib/ai/tokenizer";
import { getDb } from "@/lib/db/client";
import { courses } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { workerDepsFromEnv } from "@/lib/ingest/deps";
import { startWorker } from "@/lib/ingest/worker";
import { DEMO_ACCOUNTS, seedDemoCourse } from "./seed";

let worker: ReturnType<typeof startWorker> | undefined;

/** Wakes the worker after an upload so ingestion starts at once rather than on the next poll. */
export function kickWorker(): void {
  void worker?.kick();
}

export async function boot(): Promise<void> {
  // The tokenizer parses its rank file on first use (~1 s): pay that at start, not on a first question.
  countTokens("warm up");
  const handle = await getDb();
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
  // another instance) is reclaimed by whichever worker polls after its lease expires.
  if (env.INGEST_WORKER === "1") worker = startWorker(handle, workerDepsFromEnv());
}
