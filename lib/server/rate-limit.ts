import "server-only";
import type { Db } from "@/lib/db/client";
import { countRequest, pruneRateLimits } from "@/lib/db/queries/rate-limits";
import { AppError } from "@/lib/errors";

/**
 * A fixed-window limit per key (user) and action, counted in the database's `rate_limits` table
 * so that every server process sharing the database enforces the same limit. A refused request
 * counts too; it does not move the window.
 */
export function rateLimiter({ limit, windowMs, action }: { limit: number; windowMs: number; action: string }) {
  const prefix = `${action}:`;
  let lastPrune = 0;
  return {
    async check(db: Db, key: string, now = Date.now()): Promise<void> {
      const { count, windowStart } = await countRequest(db, { key: prefix + key, windowMs, now });
      // Ended windows are dead rows: clear them about once a window per process (one small scan).
      if (now - lastPrune >= windowMs) {
        lastPrune = now;
        await pruneRateLimits(db, { prefix, windowMs, now });
      }
      if (count > limit) {
        const wait = Math.max(1, Math.ceil((windowStart + windowMs - now) / 1000));
        throw new AppError("rate_limit:request", `Too many ${action} in a short time. Try again in ${wait} s.`, wait);
      }
    },
  };
}
