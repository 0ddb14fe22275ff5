import "server-only";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createClient, type Client, type Transaction } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { env } from "@/lib/env";
import { log } from "@/lib/server/log";
import { migrateDatabase, type MigrationResult } from "./migrate";
import * as schema from "./schema";

export type Db = LibSQLDatabase<typeof schema> & { $client: Client };

export interface DbHandle {
  db: Db;
  client: Client;
  url: string;
}

/** Opens a database: an embedded libSQL file (created with its folder) or a libSQL server / Turso. */
export function openDb(url: string = env.DATABASE_URL, authToken: string | undefined = env.DATABASE_AUTH_TOKEN): DbHandle {
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length);
    if (path !== ":memory:") mkdirSync(dirname(resolve(path)), { recursive: true });
  }
  const open = () => {
    const client = createClient({ url, authToken, concurrency: 1, timeout: env.DATABASE_BUSY_TIMEOUT_MS });
    // With WAL, NORMAL syncs at checkpoints rather than every commit: a power loss may drop the last
    // commits but never corrupts the file (README "Database settings"). Per connection; the local
    // driver runs it before any later statement. Should it fail, the connection keeps FULL, the safer setting.
    if (url.startsWith("file:")) client.execute("PRAGMA synchronous = NORMAL").catch(() => {});
    return client;
  };
  const client = url.startsWith("file:") ? serialized(open) : open();
  const db = drizzle(client, { schema }) as Db;
  return { db, client, url };
}

/**
 * An embedded database is used through one connection, one operation at a time, queued
 * asynchronously: the driver waits for file locks synchronously, so a second connection waiting
 * on a transaction of the first would block the very event loop that must finish it. A
 * transaction holds the queue until it commits, rolls back or closes. The busy timeout then only
 * covers other processes (the CLI beside the server). A statement that failed with SQLITE_BUSY is
 * left in progress by the driver and would make every later COMMIT on that connection fail, so
 * after a busy error the connection is replaced.
 */
function serialized(open: () => Client): Client {
  let inner = open();
  let tail: Promise<void> = Promise.resolve();
  const acquire = async (): Promise<() => void> => {
    let release!: () => void;
    const prev = tail;
    tail = new Promise<void>((r) => (release = r));
    await prev;
    return release;
  };
  let poisoned = false;
  const noteBusy = (e: unknown) => {
    if (isDatabaseBusy(e)) poisoned = true;
    throw e;
  };
  const renewIfPoisoned = () => {
    if (!poisoned) return;
    poisoned = false;
    const old = inner;
    inner = open();
    try {
      old.close();
    } catch {
      // The old connection is discarded either way.
    }
  };
  const queued = new Set(["execute", "batch", "executeMultiple", "migrate"]);
  return new Proxy(inner, {
    get(_target, prop) {
      const target = inner;
      const value = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      if (queued.has(String(prop))) {
        return async (...args: unknown[]) => {
          const release = await acquire();
          try {
            return await value.apply(inner, args).catch(noteBusy);
          } finally {
            renewIfPoisoned();
            release();
          }
        };
      }
      if (prop === "transaction") {
        return async (...args: unknown[]) => {
          const release = await acquire();
          let tx: Transaction;
          try {
            tx = await value.apply(inner, args).catch(noteBusy);
          } catch (e) {
            renewIfPoisoned();
            release();
            throw e;
          }
          let released = false;
          const releaseOnce = () => {
            if (!released) {
              released = true;
              renewIfPoisoned();
              release();
            }
          };
          const { commit, rollback, close, execute, batch } = tx;
          tx.execute = ((stmt: Parameters<Transaction["execute"]>[0]) => execute.call(tx, stmt).catch(noteBusy)) as Transaction["execute"];
          tx.batch = ((stmts: Parameters<Transaction["batch"]>[0]) => batch.call(tx, stmts).catch(noteBusy)) as Transaction["batch"];
          tx.commit = () => commit.call(tx).catch(noteBusy).finally(releaseOnce);
          tx.rollback = () => rollback.call(tx).finally(releaseOnce);
          tx.close = () => {
            try {
              close.call(tx);
            } finally {
              releaseOnce();
            }
          };
          return tx;
        };
      }
      return value.bind(target);
    },
  });
}

/** The database stayed locked (by another process) for the whole busy timeout. */
export function isDatabaseBusy(e: unknown): boolean {
  for (let cur = e as { code?: string; cause?: unknown } | undefined, i = 0; cur && i < 5; cur = cur.cause as typeof cur, i++) {
    if (cur.code === "SQLITE_BUSY" || cur.code === "SQLITE_LOCKED") return true;
  }
  return false;
}

/** The migrations this build ships: drizzle/ beside the app (copied next to the standalone server.js). */
export const MIGRATIONS_FOLDER = resolve(process.cwd(), "drizzle");

/** Applies drizzle/ migrations (once, in one transaction; README "Upgrades") and the connection settings every handle relies on. */
export async function prepareDb(handle: DbHandle): Promise<MigrationResult> {
  if (handle.url.startsWith("file:")) {
    // WAL lets the worker write while pages read (persistent: it is a property of the file).
    await handle.client.execute("PRAGMA journal_mode = WAL");
  }
  return migrateDatabase(handle.client, MIGRATIONS_FOLDER);
}

/**
 * Closes a handle after the operations queued before this call: an embedded file's WAL is
 * checkpointed into the database first, so a clean stop leaves one self-contained file.
 */
export async function closeDb(handle: DbHandle): Promise<void> {
  if (handle.url.startsWith("file:")) await handle.client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
  handle.client.close();
}

/**
 * The process-wide database, migrated once on first use. Kept on globalThis because Next.js
 * bundles the instrumentation hook apart from the routes, and the process must have one connection.
 */
const KEY = Symbol.for("study-assistant.db");
const holder = globalThis as typeof globalThis & { [KEY]?: Map<string, Promise<DbHandle>> };

export function getDb(): Promise<DbHandle> {
  const opened = (holder[KEY] ??= new Map());
  const url = env.DATABASE_URL;
  const existing = opened.get(url);
  if (existing) return existing;
  const opening = (async () => {
    const handle = openDb(url);
    const { applied, current } = await prepareDb(handle);
    log("info", "database_ready", { url: handle.url, migration: current, applied });
    return handle;
  })();
  opened.set(url, opening);
  opening.catch(() => {
    if (opened.get(url) === opening) opened.delete(url);
  });
  return opening;
}
