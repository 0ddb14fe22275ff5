import "server-only";
import { AppError, type Surface } from "@/lib/errors";

/** A piece of work that shutdown waits for: an answer being computed or an upload being stored. */
interface Work {
  kind: "answer" | "upload";
  /** Stops the work the way its own cancel path does (an answer: as if the student went away). */
  cancel?: () => void;
  settled: Promise<void>;
}

/** What the ingestion worker last reported, for the health check. */
export interface WorkerStatus {
  /** When the worker last polled, renewed a lease or finished a job (ms since the epoch). */
  lastTickAt: number;
  /** How often it is expected to tick: the poll while idle, the lease renewal while a job runs. */
  intervalMs: number;
}

interface ProcessState {
  phase: "running" | "stopping";
  /** Seconds a refused client should wait: the shutdown bound, by when a replacement should be up. */
  retryAfterS: number;
  work: Set<Work>;
  worker: WorkerStatus | null;
}

export interface Lifecycle {
  isStopping(): boolean;
  retryAfterSeconds(): number;
  /** Registers a question or an upload and returns the function that marks it finished; null while stopping. */
  tryAdmit(kind: Work["kind"], cancel?: () => void): (() => void) | null;
  reportWorker(status: WorkerStatus | null): void;
  workerStatus(): WorkerStatus | null;
  /**
   * Graceful shutdown: refuse new work at once, hand the ingestion job back, let in-flight answers
   * finish until the bound less a reserve, cancel the rest through their cancel path, then close the
   * database. Resolves true when everything settled within the bound (the process exits 0).
   */
  shutdown(steps: ShutdownSteps): Promise<boolean>;
}

export interface ShutdownSteps {
  /** The whole shutdown's bound; in-flight answers get most of it (SHUTDOWN_TIMEOUT_MS). */
  boundMs: number;
  /** Stops the worker and hands its running job back; resolves once that is written. */
  stopWorker: () => Promise<void>;
  /** Closes the database after every write has landed. */
  closeDb: () => Promise<void>;
  /** Told what happened, for the log. */
  report: (event: string, fields: Record<string, unknown>) => void;
}

/** Leaves this much of the bound for cancelled answers to store their traces and the database to close. */
const reserveMs = (boundMs: number) => Math.min(2000, Math.floor(boundMs / 4));

const until = (deadline: number, p: Promise<unknown>) =>
  Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), Math.max(0, deadline - Date.now())).unref())]);

export function createLifecycle(): Lifecycle {
  const state: ProcessState = { phase: "running", retryAfterS: 10, work: new Set(), worker: null };
  const pending = () => [...state.work];
  return {
    isStopping: () => state.phase === "stopping",
    retryAfterSeconds: () => state.retryAfterS,
    tryAdmit(kind, cancel) {
      if (state.phase === "stopping") return null;
      let settle!: () => void;
      const work: Work = { kind, cancel, settled: new Promise<void>((r) => (settle = r)) };
      state.work.add(work);
      return () => {
        if (state.work.delete(work)) settle();
      };
    },
    reportWorker: (status) => void (state.worker = status),
    workerStatus: () => state.worker,
    async shutdown({ boundMs, stopWorker, closeDb, report }) {
      const startedAt = Date.now();
      const deadline = startedAt + boundMs;
      state.phase = "stopping";
      state.retryAfterS = Math.max(1, Math.ceil(boundMs / 1000));
      report("shutdown_started", { boundMs, answers: pending().filter((w) => w.kind === "answer").length, uploads: pending().filter((w) => w.kind === "upload").length });

      const workerStopped = stopWorker();
      const finished = await until(deadline - reserveMs(boundMs), Promise.all(pending().map((w) => w.settled)));
      let cancelled = 0;
      if (!finished) {
        for (const w of pending()) {
          if (w.cancel) {
            w.cancel();
            cancelled++;
          }
        }
      }
      const settled = (await until(deadline, Promise.all(pending().map((w) => w.settled)))) && (await until(deadline, workerStopped));
      let closed = false;
      if (settled) {
        await closeDb().then(
          () => (closed = true),
          (e) => report("shutdown_close_failed", { error: e }),
        );
      }
      report("shutdown_finished", { durationMs: Date.now() - startedAt, cancelledAnswers: cancelled, outstanding: pending().length, databaseClosed: closed });
      return settled && closed;
    },
  };
}

/**
 * The process's lifecycle lives on globalThis, not in this module: Next.js bundles the
 * instrumentation hook (which starts the worker and handles SIGTERM) apart from the route
 * handlers (which admit work and answer the health check), and each bundle may hold its own
 * copy of a module.
 */
const KEY = Symbol.for("study-assistant.lifecycle");
const holder = globalThis as typeof globalThis & { [KEY]?: Lifecycle };
export const lifecycle: Lifecycle = (holder[KEY] ??= createLifecycle());

/**
 * Admits a question or an upload, and returns the function that marks it finished (call it once,
 * however the work ends). While the process is stopping new work gets 503 with Retry-After, so a
 * load balancer's retry lands on another instance or on the restarted one. The error is made
 * here, in the caller's bundle: the shared lifecycle may come from another bundle, whose AppError
 * class `isAppError` would not recognise.
 */
export function admitWork(kind: Work["kind"], cancel?: () => void, life: Lifecycle = lifecycle): () => void {
  const finish = life.tryAdmit(kind, cancel);
  if (finish) return finish;
  const surface: Surface = kind === "answer" ? "answers" : "upload";
  const what = kind === "answer" ? "questions" : "uploads";
  const retryAfter = life.retryAfterSeconds();
  throw new AppError(`unavailable:${surface}`, `The server is restarting and takes no new ${what}. Try again in ${retryAfter} s.`, retryAfter);
}
