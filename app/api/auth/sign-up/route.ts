import { getDb } from "@/lib/db/client";
import { signUp } from "@/lib/auth/accounts";
import { signUpBody } from "@/lib/auth/schemas";
import { handler, parseJson } from "@/lib/server/http";
import { withNewSession } from "@/lib/server/session-response";

export const POST = handler(async (req) => {
  const { db } = await getDb();
  const user = await signUp(db, await parseJson(req, signUpBody));
  return withNewSession(db, req, user, 201);
});
