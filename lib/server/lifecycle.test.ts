import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { admitWork, createLifecycle, type ShutdownSteps } from "./lifecycle";

/** The shutdown sequence on its own (the real SIGTERM of a running server is e2e/deploy.spec.ts). */
const quiet = (over: Partial<ShutdownSteps> & { boundMs: number }): ShutdownSteps => ({ stopWorker: async () => {}, closeDb: async () => {}, report: () => {}, ...over });

describe("graceful shutdown", () => {
  it("lets in-flight work finish, refuses new work with 503 and Retry-After, hands the worker back, then closes the database", async () => {
    const life = createLifecycle();
    const events: Array<[string, Record<string, unknown>]> = [];
    const order: string[] = [];
    const finishAnswer = admitWork("answer", () => order.push("cancelled"), life);
    const finishUpload = admitWork("upload", undefined, life);
    setTimeout(() => (order.push("upload done"), finishUpload()), 100);
    setTimeout(() => (order.push("answer done"), finishAnswer()), 300);
    const started = Date.now();
    const stopping = life.shutdown({
      boundMs: 1200,
      stopWorker: async () => void order.push("worker handed back"),
      closeDb: async () => void order.push("db closed"),
      report: (event, fields) => events.push([event, fields]),
    });
    expect(life.isStopping()).toBe(true);
    for (const kind of ["answer", "upload"] as const) {
      const err = (() => {
        try {
          admitWork(kind, undefined, life);
        } catch (e) {
          return e;
        }
      })();
      expect(isAppError(err) && err.statusCode).toBe(503);
      const res = (err as { toResponse(): Response }).toResponse();
      expect(res.headers.get("retry-after")).toBe("2");
      expect((await res.json()).message).toMatch(/restarting/);
    }
    expect(await stopping).toBe(true);
    expect(Date.now() - started).toBeLessThan(1200);
    expect(order).toEqual(["worker handed back", "upload done", "answer done", "db closed"]);
    expect(events.at(-1)).toEqual(["shutdown_finished", expect.objectContaining({ cancelledAnswers: 0, outstanding: 0, databaseClosed: true })]);
  });

  it("cancels answers still running near the bound through their cancel path, and finishes within the bound", async () => {
    const life = createLifecycle();
    const boundMs = 1600;
    let cancelledAt = 0;
    const finish = admitWork(
      "answer",
      () => {
        cancelledAt = Date.now();
        // The cancel path: the answer stops at its next stage and stores its trace, a moment later.
        setTimeout(finish, 50);
      },
      life,
    );
    const started = Date.now();
    expect(await life.shutdown(quiet({ boundMs }))).toBe(true);
    // Cancelled once the bound less its reserve (a quarter, here) had passed, and done inside the bound.
    expect(cancelledAt - started).toBeGreaterThanOrEqual(boundMs * 0.75 - 20);
    expect(Date.now() - started).toBeLessThan(boundMs);
  });

  it("reports failure when work outlives the bound, without closing the database under it", async () => {
    const life = createLifecycle();
    admitWork("upload", undefined, life);
    let closed = false;
    const started = Date.now();
    expect(await life.shutdown(quiet({ boundMs: 1000, closeDb: async () => void (closed = true) }))).toBe(false);
    expect(closed).toBe(false);
    expect(Date.now() - started).toBeLessThan(1100);
  });
});
