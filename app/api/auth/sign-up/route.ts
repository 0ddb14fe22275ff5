import { getDb } from "@/lib/db/client";
import { signUp } from "@/lib/auth/accounts";
import { signUpBody } from "@/lib/auth/schemas";
import { clientAddress } from "@/lib/server/client";
import { handler, parseJson } from "@/lib/server/http";
import { signUpLimiter } from "@/lib/server/limits";
import { withNewSession } from "@/lib/server/session-response";

export const POST = handler(async (req) => {
  const { db } = await getDb();
  await signUpLimiter.check(db, clientAddress(req));
  const user = await signUp(db, await parseJson(req, signUpBody));
  return withNewSession(db, req, user, 201);
});
