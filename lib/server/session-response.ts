import "server-only";
import type { Db } from "@/lib/db/client";
import { createSession, sessionCookie, sessionTokenFrom } from "@/lib/auth/sessions";
import type { User } from "@/lib/db/schema";
import { servedOverHttps } from "./client";

/** Starts a session for the user, ending the one the browser came with, and answers with its cookie. */
export async function withNewSession(db: Db, req: Request, user: User, status = 200): Promise<Response> {
  const { token, expiresAt } = await createSession(db, { userId: user.id, replacing: sessionTokenFrom(req.headers.get("cookie")) });
  const secure = servedOverHttps(req);
  return Response.json({ id: user.id, email: user.email, name: user.name }, { status, headers: { "set-cookie": sessionCookie(token, expiresAt, secure) } });
}
