import { getDb } from "@/lib/db/client";
import { clearedSessionCookie, deleteSession, sessionTokenFrom } from "@/lib/auth/sessions";
import { handler } from "@/lib/server/http";

export const POST = handler(async (req) => {
  const { db } = await getDb();
  const token = sessionTokenFrom(req.headers.get("cookie"));
  if (token) await deleteSession(db, { token });
  const secure = new URL(req.url).protocol === "https:";
  return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(secure) } });
});
