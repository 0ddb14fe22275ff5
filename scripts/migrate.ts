/** npm run db:migrate — applies drizzle/ migrations to DATABASE_URL (the server also does this at start). */
import { getDb } from "@/lib/db/client";
import { isAppError } from "@/lib/errors";
import { logToStderr } from "@/lib/server/log";

logToStderr();
try {
  const handle = await getDb();
  console.log(`migrated ${handle.url}`);
  handle.client.close();
} catch (e) {
  // A database from a newer version: the message says what to do.
  console.error(isAppError(e) ? e.message : e);
  process.exit(1);
}
