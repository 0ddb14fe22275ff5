import { getDb } from "@/lib/db/client";
import { signIn } from "@/lib/auth/accounts";
import { credentials } from "@/lib/auth/schemas";
import { handler, parseJson } from "@/lib/server/http";
import { withNewSession } from "@/lib/server/session-response";

export const POST = handler(async (req) => {
  const { db } = await getDb();
  const user = await signIn(db, await parseJson(req, credentials));
  return withNewSession(db, req, user);
});
