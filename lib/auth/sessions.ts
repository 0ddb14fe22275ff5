import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lte } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sessions, users, type User } from "@/lib/db/schema";

export const SESSION_COOKIE = "sa_session";
const SESSION_DAYS = 30;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A new session for the user. `replacing` is the token the browser signed in with, if any: it is
 * ended, so a session id planted before sign-in (fixation) never becomes a signed-in one. Expired
 * sessions of every user are deleted in the same transaction: sign-ins are what create them, so
 * the table never holds more than live sessions and those of the last sign-in's moment.
 */
export async function createSession(db: Db, { userId, replacing }: { userId: string; replacing?: string | null }): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_DAYS * 24 * 3600 * 1000);
  await db.transaction(async (tx) => {
    await tx.delete(sessions).where(lte(sessions.expiresAt, now));
    if (replacing) await tx.delete(sessions).where(eq(sessions.tokenHash, digest(replacing)));
    await tx.insert(sessions).values({ tokenHash: digest(token), userId, expiresAt });
  });
  return { token, expiresAt };
}

export async function getUserBySession(db: Db, { token }: { token: string }): Promise<User | null> {
  const [row] = await db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, digest(token)), gt(sessions.expiresAt, new Date())));
  return row?.user ?? null;
}

export async function deleteSession(db: Db, { token }: { token: string }): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, digest(token)));
}

/** Ends every session of the user the token belongs to ("sign out everywhere"); nothing for an unknown token. */
export async function deleteAllSessionsOf(db: Db, { token }: { token: string }): Promise<void> {
  const [own] = await db.select({ userId: sessions.userId }).from(sessions).where(eq(sessions.tokenHash, digest(token)));
  if (own) await db.delete(sessions).where(eq(sessions.userId, own.userId));
}

/** The session token from a Cookie header, if any; a malformed one counts as none. */
export function sessionTokenFrom(cookieHeader: string | null): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name !== SESSION_COOKIE) continue;
    // A token is base64url; anything that does not decode is a cookie we never set: signed out.
    try {
      return decodeURIComponent(rest.join("=")) || null;
    } catch {
      return null;
    }
  }
  return null;
}

/** httpOnly, SameSite=Lax, Secure over https: the browser sends it only to this site and scripts never see it. */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return [`${SESSION_COOKIE}=${token}`, "Path=/", "HttpOnly", "SameSite=Lax", `Expires=${expiresAt.toUTCString()}`, secure ? "Secure" : ""].filter(Boolean).join("; ");
}

export function clearedSessionCookie(secure: boolean): string {
  return [`${SESSION_COOKIE}=`, "Path=/", "HttpOnly", "SameSite=Lax", "Max-Age=0", secure ? "Secure" : ""].filter(Boolean).join("; ");
}
