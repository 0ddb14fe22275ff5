import { getDb } from "@/lib/db/client";
import { register, SIGN_UP_NEXT } from "@/lib/auth/accounts";
import { signUpBody } from "@/lib/auth/schemas";
import { clientAddress } from "@/lib/server/client";
import { handler, parseJson } from "@/lib/server/http";
import { signUpLimiter } from "@/lib/server/limits";

export const POST = handler(async (req) => {
  const { db } = await getDb();
  await signUpLimiter.check(db, clientAddress(req));
  await register(db, await parseJson(req, signUpBody));
  // The same answer whether or not the address already had an account: no session here, the
  // client signs in next (which works for a new account, or an existing one with this password).
  return Response.json({ message: SIGN_UP_NEXT }, { status: 202 });
});
