import "server-only";
import { env } from "@/lib/env";
import { rateLimiter } from "./rate-limit";

export const askLimiter = rateLimiter({ limit: env.RATE_LIMIT_ASK_PER_MINUTE, windowMs: 60_000, action: "questions" });
export const uploadLimiter = rateLimiter({ limit: env.RATE_LIMIT_UPLOAD_PER_MINUTE, windowMs: 60_000, action: "uploads" });
