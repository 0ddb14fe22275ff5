/** npm run db:restore -- FILE — puts a backup in place of DATABASE_URL; refuses while an app holds it (README "Backups"). */
import { parseArgs } from "node:util";
import { restoreDatabase } from "@/lib/db/backup";
import { MIGRATIONS_FOLDER } from "@/lib/db/client";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { fail, helpRequested } from "./cli-args";

const usage = "Usage: npm run db:restore -- FILE   (stop the app first; the replaced database is kept beside it)";
const { values, positionals } = parseArgs({ options: { help: { type: "boolean", default: false } }, allowPositionals: true });
helpRequested(values.help, usage);
if (positionals.length !== 1) fail(usage);

try {
  const r = await restoreDatabase({ url: env.DATABASE_URL, file: positionals[0], migrationsFolder: MIGRATIONS_FOLDER });
  console.log(`restored ${positionals[0]} to ${r.target}${r.keptAs ? `; the database it replaced is kept as ${r.keptAs}` : ""}`);
} catch (e) {
  console.error(isAppError(e) ? e.message : e);
  process.exit(1);
}
