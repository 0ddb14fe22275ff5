import "server-only";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { createClient, type Client } from "@libsql/client";
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
  // Each pooled connection waits up to 10 s for a lock instead of failing with SQLITE_BUSY.
  const client = createClient({ url, authToken, timeout: 10_000 });
  const db = drizzle(client, { schema }) as Db;
  return { db, client, url };
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
