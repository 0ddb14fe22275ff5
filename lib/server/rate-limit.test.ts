import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { rateLimiter } from "./rate-limit";

describe("rateLimiter", () => {
  it("allows `limit` actions per window per key, then refuses with a 429 that says when to retry", () => {
    const limiter = rateLimiter({ limit: 3, windowMs: 60_000, action: "questions" });
    for (let i = 0; i < 3; i++) limiter.check("alice", 1_000 + i);
    const err = (() => {
      try {
        limiter.check("alice", 10_000);
      } catch (e) {
        return e;
      }
    })();
    expect(isAppError(err) && err.statusCode).toBe(429);
    expect((err as Error).message).toBe("Too many questions in a short time. Try again in 51 s.");
    // Another user is not affected, and the window resets.
    expect(() => limiter.check("bob", 10_000)).not.toThrow();
    expect(() => limiter.check("alice", 61_000)).not.toThrow();
  });
});
