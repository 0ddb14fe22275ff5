import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { sessions, users, type User } from "@/lib/db/schema";

export const SESSION_COOKIE = "sa_session";
const SESSION_DAYS = 30;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");

export async function createSession(db: Db, { userId }: { userId: string }): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + SESSION_DAYS * 24 * 3600 * 1000);
  await db.insert(sessions).values({ tokenHash: digest(token), userId, expiresAt });
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
