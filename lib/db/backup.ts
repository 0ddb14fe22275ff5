import "server-only";
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { AppError } from "@/lib/errors";

/** The file behind a `file:` database URL; a libSQL server is backed up with its own tools. */
export function databaseFile(url: string): string {
  if (!url.startsWith("file:") || url === "file::memory:") {
    throw new AppError("bad_request:database", `Only an embedded database file can be backed up or restored here (DATABASE_URL is ${url.split("?")[0]}). Use the libSQL server's own backup (sqld snapshots, turso db shell .dump).`);
  }
  return resolve(url.slice("file:".length));
}

const quote = (path: string) => `'${path.replaceAll("'", "''")}'`;

async function withClient<T>(path: string, timeoutMs: number, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = createClient({ url: `file:${path}`, timeout: timeoutMs });
  try {
    return await fn(client);
  } finally {
    client.close();
  }
}

export interface BackupCheck {
  /** `PRAGMA integrity_check`'s verdict: "ok", or the first problems it lists. */
  integrity: string;
  /** Migrations the copy has, and whether this version knows the newest of them. */
  migrations: number;
  newerThanThisVersion: boolean;
  bytes: number;
}

/** Opens a copy read-only and checks it: integrity, and which version's schema it has. */
export async function checkDatabaseFile(path: string, migrationsFolder: string): Promise<BackupCheck> {
  if (!existsSync(path)) throw new AppError("not_found:database", `There is no file at ${path}.`);
  return withClient(path, 1000, async (c) => {
    await c.execute("PRAGMA query_only = ON");
    let integrity: string;
    try {
      integrity = (await c.execute("PRAGMA integrity_check")).rows.map((r) => String(r[0])).slice(0, 5).join("; ");
    } catch (e) {
      throw new AppError("bad_request:database", `${path} is not a database file this app can read (${(e as Error).message}).`);
    }
    const hasTable = (await c.execute(`SELECT 1 FROM sqlite_master WHERE name = '__drizzle_migrations'`)).rows.length > 0;
    const applied = hasTable ? (await c.execute(`SELECT created_at FROM "__drizzle_migrations"`)).rows.map((r) => Number(r.created_at)) : [];
    const newestKnown = Math.max(0, ...readMigrationFiles({ migrationsFolder }).map((m) => m.folderMillis));
    return { integrity, migrations: applied.length, newerThanThisVersion: applied.some((m) => m > newestKnown), bytes: statSync(path).size };
  });
}

/**
 * A consistent copy of a live database with `VACUUM INTO`: it reads one snapshot (in WAL mode
 * the app's writes go on meanwhile and are not in the copy), compacted, written beside the target
 * and renamed into place once it passed `integrity_check`, so FILE is never a half-written copy.
 * An existing FILE is never overwritten.
 */
export async function backupDatabase({ url, file, migrationsFolder, busyTimeoutMs }: { url: string; file: string; migrationsFolder: string; busyTimeoutMs: number }): Promise<BackupCheck & { file: string }> {
  const source = databaseFile(url);
  const target = resolve(file);
  if (!existsSync(source)) throw new AppError("not_found:database", `There is no database at ${source}.`);
  if (existsSync(target)) throw new AppError("conflict:database", `${target} already exists; a backup never overwrites a file. Choose another name.`);
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { force: true });
  try {
    await withClient(source, busyTimeoutMs, (c) => c.execute(`VACUUM INTO ${quote(partial)}`));
    await repairVectorMeta(partial);
    const check = await checkDatabaseFile(partial, migrationsFolder);
    if (check.integrity !== "ok") throw new AppError("conflict:database", `The copy failed its integrity check (${check.integrity}); nothing was written to ${target}.`);
    renameSync(partial, target);
    return { ...check, file: target };
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * libSQL's VACUUM INTO creates the vector index in the copy (which writes its row into
 * `libsql_vector_meta_shadow`) and then copies the source's rows, the same row again: the copy
 * fails integrity_check ("row not in PRIMARY KEY order"). Measured with libsql 0.5 here; the
 * rows are identical, so one per index name is kept.
 */
async function repairVectorMeta(path: string): Promise<void> {
  await withClient(path, 1000, async (c) => {
    const exists = (await c.execute(`SELECT 1 FROM sqlite_master WHERE name = 'libsql_vector_meta_shadow'`)).rows.length > 0;
    if (!exists) return;
    const rows = (await c.execute("SELECT name, metadata FROM libsql_vector_meta_shadow")).rows;
    const byName = new Map(rows.map((r) => [String(r.name), r.metadata]));
    if (byName.size === rows.length) return;
    const tx = await c.transaction("write");
    try {
      await tx.execute("DELETE FROM libsql_vector_meta_shadow");
      for (const [name, metadata] of byName) await tx.execute({ sql: "INSERT INTO libsql_vector_meta_shadow (name, metadata) VALUES (?, ?)", args: [name, metadata] });
      await tx.commit();
    } finally {
      tx.close();
    }
  });
}

/**
 * True when another connection has the database open. Leaving WAL mode needs every other
 * connection gone; an app holds its connection for as long as it runs, idle or not, so this
 * answers "is an app (or a CLI) using it" rather than "is it writing now". Leaves the file in
 * rollback mode with its WAL checkpointed in; the app switches it back to WAL when it starts.
 */
async function heldByAnother(path: string): Promise<boolean> {
  return withClient(path, 500, async (c) => {
    try {
      const mode = String((await c.execute("PRAGMA journal_mode = DELETE")).rows[0]?.[0] ?? "");
      return mode.toLowerCase() === "wal";
    } catch (e) {
      if ((e as { code?: string }).code === "SQLITE_BUSY" || (e as { code?: string }).code === "SQLITE_LOCKED") return true;
      throw e;
    }
  });
}

/**
 * Puts a backup in place of the database at `url`: the backup is checked first (integrity, and
 * not from a newer version), a database a running app holds is refused, and the database it
 * replaces is kept beside it (`…before-restore-<time>`), never deleted.
 */
export async function restoreDatabase({ url, file, migrationsFolder }: { url: string; file: string; migrationsFolder: string }): Promise<{ target: string; keptAs: string | null }> {
  const target = databaseFile(url);
  const backup = resolve(file);
  if (backup === target) throw new AppError("bad_request:database", "The backup is the database itself.");
  const check = await checkDatabaseFile(backup, migrationsFolder);
  if (check.integrity !== "ok") throw new AppError("conflict:database", `${backup} failed its integrity check (${check.integrity}); nothing was changed.`);
  if (check.migrations === 0) throw new AppError("bad_request:database", `${backup} is not a study-assistant database (it has no migrations); nothing was changed.`);
  if (check.newerThanThisVersion) throw new AppError("conflict:database", `${backup} was made by a newer version of the study assistant; restore it with that version. Nothing was changed.`);

  let keptAs: string | null = null;
  if (existsSync(target)) {
    if (await heldByAnother(target)) {
      throw new AppError("conflict:database", `A running app (or another command) has ${target} open. Stop it first; nothing was changed.`);
    }
    keptAs = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    renameSync(target, keptAs);
  }
  const partial = `${target}.restoring-${process.pid}`;
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(backup, partial);
  // Stale companions of the replaced file must not be read as the restored database's.
  for (const suffix of ["-wal", "-shm", "-journal"]) rmSync(target + suffix, { force: true });
  renameSync(partial, target);
  return { target, keptAs };
}
