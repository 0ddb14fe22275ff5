import "server-only";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { lifecycle, type Lifecycle, type WorkerStatus } from "./lifecycle";

export type PartState = "ok" | "failing" | "disabled";

export interface HealthReport {
  status: "ok" | "failing" | "stopping";
  /** The parts checked; a failing part names why in a few words, never with data. */
  checks?: { database: PartState; worker: PartState };
  failing?: string[];
  retryAfter?: number;
}

/** A database that takes longer than this to answer `SELECT 1` counts as down. */
const DATABASE_TIMEOUT_MS = 2000;

/**
 * The worker is late when its last tick is older than two of its intervals (one missed poll or
 * renewal is tolerated: a busy event loop delays timers).
 */
export function workerIsLate(status: WorkerStatus, now = Date.now()): boolean {
  return now - status.lastTickAt > 2 * status.intervalMs;
}

async function databaseAnswers(): Promise<boolean> {
  const query = getDb().then(({ client }) => client.execute("SELECT 1"));
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timeout")), DATABASE_TIMEOUT_MS).unref());
  return Promise.race([query, timeout]).then(
    () => true,
    () => false,
  );
}

export async function checkHealth(life: Lifecycle = lifecycle): Promise<HealthReport> {
  if (life.isStopping()) return { status: "stopping", retryAfter: life.retryAfterSeconds() };
  const database: PartState = (await databaseAnswers()) ? "ok" : "failing";
  const status = life.workerStatus();
  const worker: PartState = env.INGEST_WORKER !== "1" ? "disabled" : status && !workerIsLate(status) ? "ok" : "failing";
  const checks = { database, worker };
  const failing = Object.entries(checks).filter(([, s]) => s === "failing").map(([part]) => part);
  return failing.length ? { status: "failing", checks, failing } : { status: "ok", checks };
}
