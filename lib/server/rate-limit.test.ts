import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "@/lib/db/client";
import { rateLimits } from "@/lib/db/schema";
import { openTempDb } from "@/lib/db/temp";
import { isAppError } from "@/lib/errors";
import { rateLimiter } from "./rate-limit";

/** The error a refused check throws, or undefined when the check passed. */
async function refusal(check: Promise<void>): Promise<unknown> {
  try {
    await check;
    return undefined;
  } catch (e) {
    return e;
  }
}

let db: Awaited<ReturnType<typeof openTempDb>>;
beforeEach(async () => {
  db = await openTempDb();
});
afterEach(() => db.dispose());

describe("rateLimiter", () => {
  it("allows `limit` actions per window per key, then refuses with a 429 that says when to retry", async () => {
    const limiter = rateLimiter({ limit: 3, windowMs: 60_000, action: "questions" });
    for (let i = 0; i < 3; i++) await limiter.check(db.db, "alice", 1_000 + i);
    const err = await refusal(limiter.check(db.db, "alice", 10_000));
    expect(isAppError(err) && err.statusCode).toBe(429);
    expect((err as Error).message).toBe("Too many questions in a short time. Try again in 51 s.");
    expect(isAppError(err) && err.code).toBe("rate_limit:request");
    expect(isAppError(err) && err.retryAfter).toBe(51);
    // Another user is not affected, and the window resets.
    await expect(limiter.check(db.db, "bob", 10_000)).resolves.toBeUndefined();
    await expect(limiter.check(db.db, "alice", 61_000)).resolves.toBeUndefined();
    await expect(limiter.check(db.db, "alice", 61_001)).resolves.toBeUndefined();
  });

  it("keeps separate counters per action for the same user", async () => {
    const asks = rateLimiter({ limit: 1, windowMs: 60_000, action: "questions" });
    const uploads = rateLimiter({ limit: 1, windowMs: 60_000, action: "uploads" });
    await asks.check(db.db, "alice", 1_000);
    await expect(uploads.check(db.db, "alice", 1_000)).resolves.toBeUndefined();
    expect(await refusal(asks.check(db.db, "alice", 1_001))).toBeDefined();
  });

  it("shares the counter between two connections to the same database, as two server processes have", async () => {
    const other: DbHandle = openDb(db.url);
    try {
      // One limiter object per process: nothing is shared but the database file.
      const here = rateLimiter({ limit: 4, windowMs: 60_000, action: "uploads" });
      const there = rateLimiter({ limit: 4, windowMs: 60_000, action: "uploads" });
      await here.check(db.db, "alice", 1_000);
      await there.check(other.db, "alice", 1_001);
      await here.check(db.db, "alice", 1_002);
      await there.check(other.db, "alice", 1_003);
      const err = await refusal(there.check(other.db, "alice", 2_000));
      expect((err as Error).message).toBe("Too many uploads in a short time. Try again in 59 s.");
      expect(await refusal(here.check(db.db, "alice", 2_001))).toBeDefined();
    } finally {
      other.client.close();
    }
  });

  it("counts concurrent requests exactly: none is lost", async () => {
    const limiter = rateLimiter({ limit: 10, windowMs: 60_000, action: "questions" });
    const outcomes = await Promise.all(Array.from({ length: 25 }, () => refusal(limiter.check(db.db, "alice", 5_000))));
    expect(outcomes.filter((e) => e === undefined)).toHaveLength(10);
  });

  it("prunes windows that ended, once a window, leaving current ones", async () => {
    const limiter = rateLimiter({ limit: 5, windowMs: 60_000, action: "questions" });
    await limiter.check(db.db, "alice", 1_000);
    await limiter.check(db.db, "bob", 50_000);
    await rateLimiter({ limit: 5, windowMs: 1_000, action: "uploads" }).check(db.db, "alice", 1_000);
    // Over a window later: alice's question window ended and is cleared; bob's is current; another action's rows are its own limiter's to clear.
    await limiter.check(db.db, "carol", 100_000);
    const keys = (await db.db.select({ key: rateLimits.key }).from(rateLimits)).map((r) => r.key).sort();
    expect(keys).toEqual(["questions:bob", "questions:carol", "uploads:alice"]);
  });
});
