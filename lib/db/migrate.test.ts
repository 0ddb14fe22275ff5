import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { openDb } from "./client";
import { migrateDatabase } from "./migrate";

const dir = mkdtempSync(join(tmpdir(), "upgrade-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const run = promisify(execFile);
const CURRENT = resolve("drizzle");
const journal = () => JSON.parse(readFileSync(join(CURRENT, "meta", "_journal.json"), "utf8")) as { entries: Array<{ tag: string; when: number }> };

/** A copy of drizzle/ as an older version shipped it: its first `n` migrations. */
function olderVersion(name: string, n: number): string {
  const folder = join(dir, name);
  cpSync(CURRENT, folder, { recursive: true });
  const j = journal();
  writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify({ ...j, entries: j.entries.slice(0, n) }));
  return folder;
}

const applied = async (url: string) => {
  const h = openDb(url);
  const rows = (await h.client.execute(`SELECT created_at FROM "__drizzle_migrations" ORDER BY created_at`)).rows.map((r) => Number(r.created_at));
  h.client.close();
  return rows;
};

describe("upgrades", () => {
  it("applies a new version's migrations to an old database once, keeping its data; a second start changes nothing", async () => {
    const url = `file:${join(dir, "old.db")}`;
    const old = openDb(url);
    const first = await migrateDatabase(old.client, olderVersion("v-old", 3));
    expect(first.applied).toEqual(journal().entries.slice(0, 3).map((e) => e.tag));
    await old.client.execute("INSERT INTO courses (id, slug, title, join_code, created_at) VALUES ('crs_1', 'glass', 'Glass', 'JOIN01', 0)");

    const upgrade = await migrateDatabase(old.client, CURRENT);
    expect(upgrade.applied).toEqual(journal().entries.slice(3).map((e) => e.tag));
    expect(upgrade.current).toBe(journal().entries.at(-1)!.tag);
    expect((await old.client.execute("SELECT slug FROM courses")).rows.map((r) => r.slug)).toEqual(["glass"]);
    expect(await migrateDatabase(old.client, CURRENT)).toEqual({ applied: [], current: upgrade.current });
    old.client.close();
    expect(await applied(url)).toEqual(journal().entries.map((e) => e.when));
  });

  it("two processes starting at once on a fresh database apply each migration once", async () => {
    const url = `file:${join(dir, "race.db")}`;
    // Two processes, as two instances would be (in one process a second connection would block the first's event loop).
    const start = () =>
      run(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/migrate.ts"], { env: { ...process.env, DATABASE_URL: url }, timeout: 60_000 });
    const [a, b] = await Promise.all([start(), start()]);
    const lines = [a.stderr, b.stderr].join("\n").split("\n").filter((l) => l.includes("database_ready")).map((l) => JSON.parse(l));
    expect(lines.map((l) => l.applied.length).sort((x: number, y: number) => x - y)).toEqual([0, journal().entries.length]);
    expect(await applied(url)).toEqual(journal().entries.map((e) => e.when));
  });

  it("a migration that fails leaves the database as it was: the migrations before it in the same start are rolled back too", async () => {
    const url = `file:${join(dir, "broken.db")}`;
    const h = openDb(url);
    await migrateDatabase(h.client, olderVersion("v-two", 2));
    const broken = olderVersion("v-broken", journal().entries.length);
    const last = journal().entries.at(-1)!.tag;
    writeFileSync(join(broken, `${last}.sql`), readFileSync(join(CURRENT, `${last}.sql`), "utf8") + "\n--> statement-breakpoint\nSELECT * FROM no_such_table;");
    await expect(migrateDatabase(h.client, broken)).rejects.toThrow(/no_such_table/);
    h.client.close();
    expect(await applied(url)).toEqual(journal().entries.slice(0, 2).map((e) => e.when));
    const check = openDb(url);
    // 0003's index and 0006's table are absent: nothing of the failed start remained.
    expect((await check.client.execute("SELECT name FROM sqlite_master WHERE name = 'rate_limits'")).rows).toEqual([]);
    check.client.close();
  });

  it("refuses, with a clear message and nothing changed, a database a newer version has migrated", async () => {
    const url = `file:${join(dir, "newer.db")}`;
    const h = openDb(url);
    await migrateDatabase(h.client, CURRENT);
    const future = journal().entries.at(-1)!.when + 86_400_000;
    await h.client.execute({ sql: `INSERT INTO "__drizzle_migrations" (hash, created_at) VALUES ('from-the-future', ?)`, args: [future] });
    const err = await migrateDatabase(h.client, olderVersion("v-older", 4)).catch((e) => e);
    expect(isAppError(err) && err.code).toBe("conflict:database");
    expect(err.message).toMatch(/upgraded by a newer version/);
    expect(err.message).toContain(journal().entries[3].tag);
    // The same refusal from the current version, which also lacks the future migration.
    await expect(migrateDatabase(h.client, CURRENT)).rejects.toThrow(/newer version/);
    h.client.close();
    expect((await applied(url)).length).toBe(journal().entries.length + 1);
  });
});
