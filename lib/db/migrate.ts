import "server-only";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@libsql/client";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { AppError } from "@/lib/errors";

/** drizzle-kit's bookkeeping table: the same rows `drizzle-kit migrate` and drizzle's migrator write. */
const TABLE = "__drizzle_migrations";

export interface MigrationResult {
  /** Tags of the migrations this call applied, oldest first (empty when the database was current). */
  applied: string[];
  /** The newest migration the database now has. */
  current: string | null;
}

/**
 * Applies drizzle-kit's migrations in `folder` that the database lacks, in one write transaction
 * that also reads what is applied: two processes starting at once on one database serialize on
 * it, so each migration is applied once, and a migration that fails leaves the database as it
 * was. A database that already has a migration newer than every one this version ships was
 * upgraded by a newer version; starting on it could misread its tables, so it is refused
 * (`conflict:database`) and nothing is changed.
 *
 * Same rule as drizzle's own migrator (a migration is pending when it is newer than the newest
 * applied), which reads and applies in two steps.
 */
export async function migrateDatabase(client: Client, folder: string): Promise<MigrationResult> {
  const migrations = readMigrationFiles({ migrationsFolder: folder });
  const { entries } = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as { entries: Array<{ tag: string; when: number }> };
  const tagAt = (millis: number) => entries.find((e) => e.when === millis)?.tag ?? new Date(millis).toISOString();
  const newestKnown = Math.max(0, ...migrations.map((m) => m.folderMillis));

  // Table rebuilds need foreign keys off, and the pragma is a no-op inside a transaction.
  const fk = Number((await client.execute("PRAGMA foreign_keys")).rows[0]?.[0] ?? 0);
  await client.execute("PRAGMA foreign_keys = OFF");
  const tx = await client.transaction("write");
  try {
    await tx.execute(`CREATE TABLE IF NOT EXISTS "${TABLE}" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
    const appliedMillis = (await tx.execute(`SELECT created_at FROM "${TABLE}"`)).rows.map((r) => Number(r.created_at));
    const newestApplied = Math.max(0, ...appliedMillis);
    if (newestApplied > newestKnown) {
      throw new AppError(
        "conflict:database",
        `The database was upgraded by a newer version of the study assistant (it has a migration from ${new Date(newestApplied).toISOString()}; ` +
          `this version knows migrations up to ${tagAt(newestKnown)}). Nothing was changed. Start the newer version, or restore a backup taken before the upgrade (npm run db:restore).`,
      );
    }
    const applied: string[] = [];
    for (const m of migrations) {
      if (m.folderMillis <= newestApplied) continue;
      for (const stmt of m.sql) if (stmt.trim()) await tx.execute(stmt);
      await tx.execute({ sql: `INSERT INTO "${TABLE}" ("hash", "created_at") VALUES (?, ?)`, args: [m.hash, m.folderMillis] });
      applied.push(tagAt(m.folderMillis));
    }
    await tx.commit();
    const newest = Math.max(newestApplied, ...migrations.filter((m) => m.folderMillis > newestApplied).map((m) => m.folderMillis));
    return { applied, current: newest > 0 ? tagAt(newest) : null };
  } catch (e) {
    await tx.rollback().catch(() => {});
    throw e;
  } finally {
    tx.close();
    if (fk) await client.execute("PRAGMA foreign_keys = ON");
  }
}
