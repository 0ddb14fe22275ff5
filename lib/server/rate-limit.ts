import "server-only";
import type { Db } from "@/lib/db/client";
import { countRequest, pruneRateLimits, readWindow } from "@/lib/db/queries/rate-limits";
import { AppError } from "@/lib/errors";

/**
 * A fixed-window limit per key (user, address, account) and action, counted in the database's
 * `rate_limits` table so that every server process sharing the database enforces the same limit.
 * `check` counts every request (a refused one too; it does not move the window). `assertUnder` and
 * `record` count only what the caller records (failed sign-ins), so success costs nothing.
 * `name` keeps two limits on the same action (a minute's and an hour's) apart; it defaults to the
 * action, which is also what the refusal says.
 */
export function rateLimiter({ limit, windowMs, action, name = action }: { limit: number; windowMs: number; action: string; name?: string }) {
  const prefix = `${name}:`;
  let lastPrune = 0;
  const refusal = (windowStart: number, now: number) => {
    const wait = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
    return new AppError("rate_limit:request", `Too many ${action} in a short time. Try again in ${wait} s.`, wait);
  };
  const count = async (db: Db, key: string, now: number) => {
    const window = await countRequest(db, { key: prefix + key, windowMs, now });
    // Ended windows are dead rows: clear them about once a window per process (one small scan).
    if (now - lastPrune >= windowMs) {
      lastPrune = now;
      await pruneRateLimits(db, { prefix, windowMs, now });
    }
    return window;
  };
  return {
    async check(db: Db, key: string, now = Date.now()): Promise<void> {
      const { count: n, windowStart } = await count(db, key, now);
      if (n > limit) throw refusal(windowStart, now);
    },
    /** Refuses once `limit` events were recorded in the current window; records nothing. */
    async assertUnder(db: Db, key: string, now = Date.now()): Promise<void> {
      const window = await readWindow(db, { key: prefix + key, windowMs, now });
      if (window && window.count >= limit) throw refusal(window.windowStart, now);
    },
    /** Records one event against the key. */
    async record(db: Db, key: string, now = Date.now()): Promise<void> {
      await count(db, key, now);
    },
  };
}
