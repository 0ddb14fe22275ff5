import "server-only";
import { AppError } from "@/lib/errors";

interface Window {
  start: number;
  count: number;
}

/**
 * A fixed-window limit per key (user and action), in this process's memory: enough for one
 * server; a fleet would keep the counters in the database instead.
 */
export function rateLimiter({ limit, windowMs, action }: { limit: number; windowMs: number; action: string }) {
  const windows = new Map<string, Window>();
  return {
    check(key: string, now = Date.now()): void {
      const w = windows.get(key);
      if (!w || now - w.start >= windowMs) {
        windows.set(key, { start: now, count: 1 });
        if (windows.size > 10_000) for (const [k, v] of windows) if (now - v.start >= windowMs) windows.delete(k);
        return;
      }
      if (w.count >= limit) {
        const wait = Math.ceil((w.start + windowMs - now) / 1000);
        throw new AppError("rate_limit:request", `Too many ${action} in a short time. Try again in ${wait} s.`);
      }
      w.count++;
    },
  };
}
