/** npm run db:backup -- FILE — a consistent copy of DATABASE_URL while the app runs (README "Backups"). */
import { parseArgs } from "node:util";
import { backupDatabase } from "@/lib/db/backup";
import { MIGRATIONS_FOLDER } from "@/lib/db/client";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { fail, helpRequested } from "./cli-args";

const usage = "Usage: npm run db:backup -- FILE   (copies DATABASE_URL, consistent while the app runs; never overwrites FILE)";
const { values, positionals } = parseArgs({ options: { help: { type: "boolean", default: false } }, allowPositionals: true });
helpRequested(values.help, usage);
if (positionals.length !== 1) fail(usage);

try {
  const r = await backupDatabase({ url: env.DATABASE_URL, file: positionals[0], migrationsFolder: MIGRATIONS_FOLDER, busyTimeoutMs: env.DATABASE_BUSY_TIMEOUT_MS });
  console.log(`backed up ${env.DATABASE_URL} to ${r.file} (${r.bytes} bytes, ${r.migrations} migrations, integrity ${r.integrity})`);
} catch (e) {
  console.error(isAppError(e) ? e.message : e);
  process.exit(1);
}
