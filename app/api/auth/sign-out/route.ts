import { getDb } from "@/lib/db/client";
import { clearedSessionCookie, deleteSession, sessionTokenFrom } from "@/lib/auth/sessions";
import { servedOverHttps } from "@/lib/server/client";
import { handler } from "@/lib/server/http";

export const POST = handler(async (req) => {
  const { db } = await getDb();
  const token = sessionTokenFrom(req.headers.get("cookie"));
  if (token) await deleteSession(db, { token });
  const secure = servedOverHttps(req);
  return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(secure) } });
});
