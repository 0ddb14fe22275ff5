/** npm run db:migrate — applies drizzle/ migrations to DATABASE_URL (the server also does this at start). */
import { getDb } from "@/lib/db/client";

const handle = await getDb();
console.log(`migrated ${handle.url}`);
handle.client.close();
