import "server-only";
import type { Db } from "@/lib/db/client";
import { env } from "@/lib/env";
import { rateLimiter } from "./rate-limit";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const askLimiter = rateLimiter({ limit: env.RATE_LIMIT_ASK_PER_MINUTE, windowMs: MINUTE, action: "questions" });
export const uploadLimiter = rateLimiter({ limit: env.RATE_LIMIT_UPLOAD_PER_MINUTE, windowMs: MINUTE, action: "uploads" });
export const signUpLimiter = rateLimiter({ limit: env.RATE_LIMIT_SIGN_UP_PER_HOUR, windowMs: HOUR, action: "sign-ups from this address", name: "sign-ups" });
export const joinLimiter = rateLimiter({ limit: env.RATE_LIMIT_JOIN_PER_HOUR, windowMs: HOUR, action: "join attempts", name: "joins" });

/** A quarter of the hour's failures within a minute waits out the minute; the hour's all wait out the hour: backoff in two steps. */
const tiers = (action: string, name: string, perHour: number) => [
  rateLimiter({ limit: Math.ceil(perHour / 4), windowMs: MINUTE, action, name: `${name}-minute` }),
  rateLimiter({ limit: perHour, windowMs: HOUR, action, name: `${name}-hour` }),
];
const perAccountAtAddress = tiers("failed sign-ins", "sign-in-account", env.RATE_LIMIT_SIGN_IN_FAILURES_PER_HOUR);
const perAddress = tiers("failed sign-ins from this address", "sign-in-address", env.RATE_LIMIT_SIGN_IN_ADDRESS_FAILURES_PER_HOUR);

/**
 * Password guessing. Failures are counted per account *from one address* and per address, never
 * per account alone: a count per account alone would let anyone lock its owner out by failing on
 * purpose, whereas here the owner signs in from their own address whatever others do. Refused
 * requests are refused before the password is hashed, so a flood costs no argon2 time.
 */
export const signInThrottle = {
  async assertAllowed(db: Db, { email, address }: { email: string; address: string }): Promise<void> {
    for (const l of perAccountAtAddress) await l.assertUnder(db, accountKey(email, address));
    for (const l of perAddress) await l.assertUnder(db, address);
  },
  async recordFailure(db: Db, { email, address }: { email: string; address: string }): Promise<void> {
    for (const l of perAccountAtAddress) await l.record(db, accountKey(email, address));
    for (const l of perAddress) await l.record(db, address);
  },
};

const accountKey = (email: string, address: string) => `${email.trim().toLowerCase()}|${address}`;
