import "server-only";
import PQueue from "p-queue";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { busyMessage } from "./front-door.mjs";

export interface AdmissionSettings {
  /** Answers computed at once; more only interleave on the one event loop and one database queue. */
  concurrency: number;
  /** Answers allowed to wait for a slot; one more is refused at once. */
  queueLimit: number;
  /** A waiting answer is refused when it has not started within this long. */
  maxWaitMs: number;
}

export interface Admission {
  /** Waits (first come, first served) for a slot and returns its release, or throws `unavailable:answers` with a retry estimate. */
  acquire(signal?: AbortSignal): Promise<() => void>;
  readonly running: number;
  readonly waiting: number;
}

/** How many recent answers the service-time estimate remembers (an exponential moving average). */
const SERVICE_SMOOTHING = 0.1;

/**
 * Fair admission for answers: a bounded FIFO queue in front of a fixed number of slots (p-queue).
 * A request past the queue's bound, or one that waited `maxWaitMs`, gets 503 with Retry-After
 * at once instead of an unbounded wait behind everyone else; the estimate is the queue's length
 * times the mean answer time over the slots.
 */
export function createAdmission({ concurrency, queueLimit, maxWaitMs }: AdmissionSettings): Admission {
  const queue = new PQueue({ concurrency });
  let meanServiceMs = 100;
  const retryAfter = () => Math.max(1, Math.ceil(((queue.size + 1) * meanServiceMs) / concurrency / 1000));
  const busy = () => new AppError("unavailable:answers", busyMessage(retryAfter()), retryAfter());

  return {
    get running() {
      return queue.pending;
    },
    get waiting() {
      return queue.size;
    },
    async acquire(signal) {
      // Counted over slots and queue together: with no queue at all (queueLimit 0) a free slot still admits.
      if (queue.pending + queue.size >= concurrency + queueLimit) throw busy();
      // Aborts the wait only: once the slot is taken, neither the clock nor the client's signal touches it (p-queue would abort a running task too).
      const wait = new AbortController();
      const timer = setTimeout(() => wait.abort(busy()), maxWaitMs);
      const onClientGone = () => wait.abort(new AppError("bad_request:chat", "The request was cancelled."));
      signal?.addEventListener("abort", onClientGone, { once: true });
      if (signal?.aborted) onClientGone();
      let granted!: () => void;
      const started = new Promise<void>((resolveStarted, rejectStarted) => {
        queue
          .add(
            () =>
              // The task holds its slot until the answer releases it (the stream ends or is cancelled).
              new Promise<void>((release) => {
                clearTimeout(timer);
                signal?.removeEventListener("abort", onClientGone);
                const startedAt = performance.now();
                granted = () => {
                  meanServiceMs += SERVICE_SMOOTHING * (performance.now() - startedAt - meanServiceMs);
                  release();
                };
                resolveStarted();
              }),
            { signal: wait.signal },
          )
          .catch((e) => rejectStarted(wait.signal.aborted ? wait.signal.reason : e));
      });
      try {
        await started;
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onClientGone);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        granted();
      };
    },
  };
}

/** The process's admission for answers (README "Load"). */
export const answerAdmission = createAdmission({ concurrency: env.ANSWER_CONCURRENCY, queueLimit: env.ANSWER_QUEUE_LIMIT, maxWaitMs: env.ANSWER_QUEUE_WAIT_MS });
