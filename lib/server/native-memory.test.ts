import { describe, expect, it, vi } from "vitest";
import { startNativeCollector } from "./native-memory";

const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("startNativeCollector", () => {
  it("asks for a concurrent major collection once the event loop has been busy for busyMs", async () => {
    const collect = vi.fn();
    const c = startNativeCollector({ busyMs: 100, checkMs: 10, collect });
    // 400 ms of work in 20 ms slices, letting the check run between them.
    for (let i = 0; i < 20; i++) {
      spin(20);
      await sleep(1);
    }
    await sleep(30);
    c.stop();
    expect(collect.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(collect.mock.calls.length).toBeLessThanOrEqual(4);
    expect(collect).toHaveBeenCalledWith({ type: "major", execution: "async" });
    expect(c.collections()).toBe(collect.mock.calls.length);
  });

  it("collects nothing while the server is idle", async () => {
    const collect = vi.fn();
    const c = startNativeCollector({ busyMs: 100, checkMs: 10, collect });
    await sleep(400);
    c.stop();
    expect(collect).not.toHaveBeenCalled();
  });

  it("reaches V8's own collector without node's --expose-gc flag", async () => {
    const c = startNativeCollector({ busyMs: 1, checkMs: 5 });
    spin(20);
    await sleep(30);
    c.stop();
    expect(c.collections()).toBeGreaterThanOrEqual(1);
  });
});
