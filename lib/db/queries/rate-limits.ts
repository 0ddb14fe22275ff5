import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../client";
import { rateLimits } from "../schema";

/**
 * Counts one request against `key` in a fixed window, in one statement: a key seen for the first
 * time, or whose window has ended, starts a new window at `now` with a count of 1; otherwise the
 * count goes up by one. Every process sharing the database sees the same counter, and concurrent
 * requests are serialized by the database, so none is lost. Returns the window after the count.
 */
export async function countRequest(db: Db, { key, windowMs, now }: { key: string; windowMs: number; now: number }): Promise<{ count: number; windowStart: number }> {
  // In DO UPDATE, every SET expression reads the row as it was before the update.
  const expired = sql`${now} - ${rateLimits.windowStart} >= ${windowMs}`;
  const [row] = await db
    .insert(rateLimits)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${expired} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        windowStart: sql`CASE WHEN ${expired} THEN ${now} ELSE ${rateLimits.windowStart} END`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart });
  return row;
}

/** Deletes the windows of keys starting with `prefix` that ended before `now`; returns how many. */
export async function pruneRateLimits(db: Db, { prefix, windowMs, now }: { prefix: string; windowMs: number; now: number }): Promise<number> {
  const gone = await db
    .delete(rateLimits)
    .where(and(sql`substr(${rateLimits.key}, 1, ${prefix.length}) = ${prefix}`, lt(rateLimits.windowStart, now - windowMs)))
    .returning({ key: rateLimits.key });
  return gone.length;
}

/** The window of `key` when it has not ended at `now`, without counting anything. */
export async function readWindow(db: Db, { key, windowMs, now }: { key: string; windowMs: number; now: number }): Promise<{ count: number; windowStart: number } | undefined> {
  const [row] = await db
    .select({ count: rateLimits.count, windowStart: rateLimits.windowStart })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), gt(rateLimits.windowStart, now - windowMs)));
  return row;
}
