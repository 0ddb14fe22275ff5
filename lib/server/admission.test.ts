import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { createAdmission } from "./admission";

const tick = () => new Promise((r) => setTimeout(r, 5));

describe("answer admission", () => {
  it("admits first come, first served, and never more than its concurrency at once", async () => {
    const admission = createAdmission({ concurrency: 2, queueLimit: 10, maxWaitMs: 5000 });
    const order: number[] = [];
    const releases = await Promise.all([admission.acquire(), admission.acquire()]);
    const waiting = [3, 4, 5].map((n) => admission.acquire().then((release) => (order.push(n), release)));
    await tick();
    expect(admission.running).toBe(2);
    expect(admission.waiting).toBe(3);
    releases[0]();
    const third = await waiting[0];
    releases[1]();
    third();
    await Promise.all(waiting.slice(1)).then((rs) => rs.forEach((r) => r()));
    await tick();
    expect(order).toEqual([3, 4, 5]);
    expect(admission.running).toBe(0);
  });

  it("refuses at once past the queue's bound, with a retry estimate", async () => {
    const admission = createAdmission({ concurrency: 1, queueLimit: 1, maxWaitMs: 5000 });
    const first = await admission.acquire();
    const second = admission.acquire();
    await tick();
    const started = performance.now();
    const err = await admission.acquire().catch((e) => e);
    expect(performance.now() - started).toBeLessThan(50);
    expect(isAppError(err) && err.code).toBe("unavailable:answers");
    expect(err.statusCode).toBe(503);
    expect(err.retryAfter).toBeGreaterThanOrEqual(1);
    const response = err.toResponse() as Response;
    expect(response.headers.get("retry-after")).toBe(String(err.retryAfter));
    first();
    (await second)();
  });

  it("with no queue, admits while a slot is free and refuses the next at once", async () => {
    const admission = createAdmission({ concurrency: 1, queueLimit: 0, maxWaitMs: 5000 });
    const first = await admission.acquire();
    const err = await admission.acquire().catch((e) => e);
    expect(isAppError(err) && err.code).toBe("unavailable:answers");
    first();
    await tick();
    (await admission.acquire())();
  });

  it("refuses a request that waited too long, and its place is given up", async () => {
    const admission = createAdmission({ concurrency: 1, queueLimit: 5, maxWaitMs: 30 });
    const first = await admission.acquire();
    const err = await admission.acquire().catch((e) => e);
    expect(isAppError(err) && err.code).toBe("unavailable:answers");
    expect(admission.waiting).toBe(0);
    first();
    const next = await admission.acquire();
    expect(admission.running).toBe(1);
    next();
  });

  it("drops a waiting request whose client went away, and a release twice frees one slot", async () => {
    const admission = createAdmission({ concurrency: 1, queueLimit: 5, maxWaitMs: 5000 });
    const first = await admission.acquire();
    const gone = new AbortController();
    const waiting = admission.acquire(gone.signal).catch((e) => e);
    await tick();
    gone.abort();
    expect(isAppError(await waiting)).toBe(true);
    expect(admission.waiting).toBe(0);
    first();
    first();
    const a = await admission.acquire();
    const b = admission.acquire();
    await tick();
    expect(admission.running).toBe(1);
    a();
    (await b)();
  });
});
