import "server-only";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createClient, type Client, type Transaction } from "@libsql/client";
import { drizzle, type LibSQLDatabase } from "drizzle-orm/libsql";
import { migrate } from "drizzle-orm/libsql/migrator";
import { env } from "@/lib/env";
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
  const raw = createClient({ url, authToken, concurrency: 1, timeout: 10_000 });
  const client = url.startsWith("file:") ? serialized(raw) : raw;
  const db = drizzle(client, { schema }) as Db;
  return { db, client, url };
}

/**
 * An embedded database is used through one connection, one operation at a time, queued
 * asynchronously: the driver waits for file locks synchronously, so a second connection waiting
 * on a transaction of the first would block the very event loop that must finish it. A
 * transaction holds the queue until it commits, rolls back or closes. The busy timeout above
 * then only covers other processes (the CLI beside the server).
 */
function serialized(client: Client): Client {
  let tail: Promise<void> = Promise.resolve();
  const acquire = async (): Promise<() => void> => {
    let release!: () => void;
    const prev = tail;
    tail = new Promise<void>((r) => (release = r));
    await prev;
    return release;
  };
  const queued = new Set(["execute", "batch", "executeMultiple", "migrate"]);
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      if (queued.has(String(prop))) {
        return async (...args: unknown[]) => {
          const release = await acquire();
          try {
            return await value.apply(target, args);
          } finally {
            release();
          }
        };
      }
      if (prop === "transaction") {
        return async (...args: unknown[]) => {
          const release = await acquire();
          let tx: Transaction;
          try {
            tx = await value.apply(target, args);
          } catch (e) {
            release();
            throw e;
          }
          let released = false;
          const releaseOnce = () => {
            if (!released) {
              released = true;
              release();
            }
          };
          const { commit, rollback, close } = tx;
          tx.commit = () => commit.call(tx).finally(releaseOnce);
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

/** Applies drizzle/ migrations and the connection settings every handle relies on. */
export async function prepareDb(handle: DbHandle): Promise<void> {
  if (handle.url.startsWith("file:")) {
    // WAL lets the worker write while pages read (persistent: it is a property of the file).
    await handle.client.execute("PRAGMA journal_mode = WAL");
  }
  await migrate(handle.db, { migrationsFolder: resolve(process.cwd(), "drizzle") });
}

let shared: Promise<DbHandle> | undefined;

/** The process-wide database, migrated once on first use. */
export function getDb(): Promise<DbHandle> {
  shared ??= (async () => {
    const handle = openDb();
    await prepareDb(handle);
    return handle;
  })();
  shared.catch(() => {
    shared = undefined;
  });
  return shared;
}
