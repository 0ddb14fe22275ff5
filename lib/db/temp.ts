import "server-only";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDb, prepareDb, type DbHandle } from "./client";

/** A fresh, migrated libSQL file in a temporary folder, for tests and benchmarks. */
export async function openTempDb(): Promise<DbHandle & { dir: string; dispose: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), "study-db-"));
  const handle = openDb(`file:${join(dir, "study.db")}`);
  await prepareDb(handle);
  return {
    ...handle,
    dir,
    dispose: () => {
      handle.client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
