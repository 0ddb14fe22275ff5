import { getDb } from "@/lib/db/client";
import { clearedSessionCookie, deleteAllSessionsOf, deleteSession, sessionTokenFrom } from "@/lib/auth/sessions";
import { servedOverHttps } from "@/lib/server/client";
import { handler } from "@/lib/server/http";

/** Ends this session, or with `?everywhere=1` every session of its user (other browsers, other devices). */
export const POST = handler(async (req) => {
  const { db } = await getDb();
  const token = sessionTokenFrom(req.headers.get("cookie"));
  const everywhere = new URL(req.url).searchParams.get("everywhere") === "1";
  if (token) await (everywhere ? deleteAllSessionsOf : deleteSession)(db, { token });
  return new Response(null, { status: 204, headers: { "set-cookie": clearedSessionCookie(servedOverHttps(req)) } });
});
