import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, expect, it } from "vitest";
import { openDb } from "./client";
import { migrateDatabase } from "./migrate";

const dir = mkdtempSync(join(tmpdir(), "migrations-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("0006 keeps messages whose trace was never stored, unlinking them before the foreign key", async () => {
  // The migrations as they were before 0006.
  const before = join(dir, "drizzle-0005");
  cpSync(resolve("drizzle"), before, { recursive: true });
  const journalPath = join(before, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ idx: number; tag: string }> };
  const at0006 = journal.entries.findIndex((e) => e.tag.startsWith("0006_"));
  expect(at0006).toBeGreaterThan(0);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at0006) }));

  const handle = openDb(`file:${join(dir, "old.db")}`);
  await migrateDatabase(handle.client, before);
  await handle.client.execute("INSERT INTO courses (id, slug, title, join_code, created_at) VALUES ('crs_1', 'glass', 'Glass', 'JOIN01', 0)");
  await handle.client.execute("INSERT INTO conversations (id, course_id, title, created_at) VALUES ('cnv_1', 'crs_1', 'Glass', 0)");
  await handle.client.execute("INSERT INTO traces (id, course_id, question, status, data, created_at) VALUES ('trc_kept', 'crs_1', 'q', 'answered', '{}', 0)");
  await handle.client.execute("INSERT INTO messages (id, conversation_id, role, content, trace_id, created_at) VALUES ('msg_linked', 'cnv_1', 'assistant', 'a', 'trc_kept', 0)");
  await handle.client.execute("INSERT INTO messages (id, conversation_id, role, content, trace_id, created_at) VALUES ('msg_orphan', 'cnv_1', 'assistant', 'b', 'trc_lost', 1)");

  await migrateDatabase(handle.client, resolve("drizzle"));
  const rows = await handle.client.execute("SELECT id, trace_id FROM messages ORDER BY id");
  expect(rows.rows.map((r) => [r.id, r.trace_id])).toEqual([
    ["msg_linked", "trc_kept"],
    ["msg_orphan", null],
  ]);
  await expect(handle.client.execute("UPDATE messages SET trace_id = 'trc_none' WHERE id = 'msg_linked'")).rejects.toThrow(/FOREIGN KEY/);
  handle.client.close();
});

it("an embedded database runs in WAL with synchronous=NORMAL", async () => {
  const { openTempDb } = await import("./temp");
  const db = await openTempDb();
  expect((await db.client.execute("PRAGMA journal_mode")).rows[0].journal_mode).toBe("wal");
  expect((await db.client.execute("PRAGMA synchronous")).rows[0].synchronous).toBe(1);
  db.dispose();
});
