import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";

/** GET /api/health over a real database file: what a load balancer sees, and that it names only parts. */
const dir = mkdtempSync(join(tmpdir(), "health-"));
let route: typeof import("./route");
let lifecycle: typeof import("@/lib/server/lifecycle").lifecycle;
let handle: Awaited<ReturnType<typeof import("@/lib/db/client").getDb>>;

beforeAll(async () => {
  vi.stubEnv("DATABASE_URL", `file:${join(dir, "health.db")}`);
  vi.stubEnv("INGEST_WORKER", "1");
  vi.resetModules();
  handle = await (await import("@/lib/db/client")).getDb();
  ({ lifecycle } = await import("@/lib/server/lifecycle"));
  route = await import("./route");
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

const get = async () => {
  const res = await route.GET();
  return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
};

it("is ok when the database answers and the worker ticked within its interval", async () => {
  lifecycle.reportWorker({ lastTickAt: Date.now(), intervalMs: 2000 });
  expect(await get()).toEqual({ status: 200, body: { status: "ok", checks: { database: "ok", worker: "ok" } }, retryAfter: null });
});

it("names the worker when it has not ticked for two of its intervals, or never started", async () => {
  lifecycle.reportWorker({ lastTickAt: Date.now() - 4100, intervalMs: 2000 });
  expect(await get()).toMatchObject({ status: 503, body: { status: "failing", failing: ["worker"], checks: { database: "ok", worker: "failing" } } });
  lifecycle.reportWorker(null);
  expect((await get()).body.failing).toEqual(["worker"]);
  // A job's lease renewals are its ticks: a longer interval while one runs.
  lifecycle.reportWorker({ lastTickAt: Date.now() - 4100, intervalMs: 10_000 });
  expect((await get()).status).toBe(200);
});

it("names the database when it does not answer", async () => {
  lifecycle.reportWorker({ lastTickAt: Date.now(), intervalMs: 2000 });
  handle.client.close();
  const { status, body } = await get();
  expect(status).toBe(503);
  expect(body).toEqual({ status: "failing", failing: ["database"], checks: { database: "failing", worker: "ok" } });
});

it("says stopping, with Retry-After, once shutdown began", async () => {
  void lifecycle.shutdown({ boundMs: 3000, stopWorker: async () => {}, closeDb: async () => {}, report: () => {} });
  expect(await get()).toEqual({ status: 503, body: { status: "stopping" }, retryAfter: "3" });
});
