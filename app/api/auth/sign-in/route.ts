import { getDb } from "@/lib/db/client";
import { signIn } from "@/lib/auth/accounts";
import { credentials } from "@/lib/auth/schemas";
import { isAppError } from "@/lib/errors";
import { clientAddress } from "@/lib/server/client";
import { handler, parseJson } from "@/lib/server/http";
import { signInThrottle } from "@/lib/server/limits";
import { withNewSession } from "@/lib/server/session-response";

export const POST = handler(async (req) => {
  const { db } = await getDb();
  const body = await parseJson(req, credentials);
  const who = { email: body.email, address: clientAddress(req) };
  await signInThrottle.assertAllowed(db, who);
  try {
    return await withNewSession(db, req, await signIn(db, body));
  } catch (e) {
    if (isAppError(e) && e.type === "unauthorized") await signInThrottle.recordFailure(db, who);
    throw e;
  }
});
