/**
 * Backups of a live database: `npm run db:backup` runs in its own process while this one uploads
 * and asks, as the app would; the copy is restored into a fresh path by `npm run db:restore`, and
 * a restore onto the database this process holds is refused.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { extractiveGenerator } from "@/lib/ai/generators";
import { countTokens } from "@/lib/ai/tokenizer";
import { ensureCourse } from "@/lib/db/queries/courses";
import { openTempDb } from "@/lib/db/temp";
import { submitUpload } from "@/lib/ingest/upload";
import { processQueuedJobs } from "@/lib/ingest/worker";
import { buildPdf } from "@/lib/pdf/build";
import { ask, askDeps } from "@/lib/server/ask";
import { openDb, prepareDb } from "./client";

const run = promisify(execFile);
const workerDeps = { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 8 };
const QUESTION = "When does the field trip leave?";
let live: Awaited<ReturnType<typeof openTempDb>>;
let courseId: string;

const cli = (script: "db-backup" | "db-restore", file: string, url: string) =>
  run(process.execPath, ["--conditions=react-server", "--import", "tsx", `scripts/${script}.ts`, file], { env: { ...process.env, DATABASE_URL: url }, timeout: 120_000 }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

const notice = (n: number) =>
  buildPdf({ pages: [{ blocks: [{ kind: "heading", text: `Notice ${n}` }, { kind: "paragraph", text: `Notice ${n}: the seminar on topic ${n} meets in room ${100 + n} on Tuesday.` }] }] });

const citations = async (handle: Parameters<typeof ask>[0]) => {
  const { answer } = await ask(handle, { courseId, question: QUESTION, history: [] }, askDeps(handle, courseId, {}, extractiveGenerator()));
  return { status: answer.status, citations: answer.parts.flatMap((p) => p.claims.flatMap((c) => c.citations.map(({ chunkId, documentTitle, revision, pdfPage, quote }) => ({ chunkId, documentTitle, revision, pdfPage, quote })))) };
};

beforeAll(async () => {
  live = await openTempDb();
  courseId = (await ensureCourse(live.db, { slug: "trips" })).id;
  const bytes = await buildPdf({ pages: [{ blocks: [{ kind: "heading", text: "Field trip" }, { kind: "paragraph", text: "The field trip leaves from the east gate at 08:15 on Friday." }] }] });
  await submitUpload(live.db, { courseId, fileName: "trip.pdf", bytes, maxBytes: 1 << 24 });
  await processQueuedJobs(live, workerDeps);
});
afterAll(() => live.dispose());

it("backs up while uploads and questions go on; the restored copy passes integrity_check and answers with the same citations", async () => {
  const before = await citations(live);
  expect(before.status).toBe("answered");
  expect(before.citations.length).toBeGreaterThan(0);

  // Writes and reads keep coming while the backup process copies.
  let writing = true;
  const traffic = (async () => {
    let n = 0;
    while (writing) {
      n++;
      await submitUpload(live.db, { courseId, fileName: `notice-${n}.pdf`, bytes: await notice(n), maxBytes: 1 << 24 });
      await Promise.all([processQueuedJobs(live, workerDeps), citations(live)]);
    }
    return n;
  })();
  const backupFile = join(live.dir, "backup.db");
  const backup = await cli("db-backup", backupFile, live.url);
  writing = false;
  const uploads = await traffic;
  expect(backup.stderr).toBe("");
  expect(backup.code).toBe(0);
  expect(backup.stdout).toMatch(/integrity ok/);
  expect(uploads).toBeGreaterThan(0);

  // Never over an existing file.
  const again = await cli("db-backup", backupFile, live.url);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/already exists/);

  const freshUrl = `file:${join(live.dir, "restored", "study.db")}`;
  const restored = await cli("db-restore", backupFile, freshUrl);
  expect(restored.stderr).toBe("");
  expect(restored.code).toBe(0);

  const copy = openDb(freshUrl);
  try {
    expect((await copy.client.execute("PRAGMA integrity_check")).rows[0][0]).toBe("ok");
    // A snapshot, not a mixture: every finished job's revision is ready with its chunks.
    const torn = await copy.client.execute(
      `SELECT j.id FROM ingestion_jobs j JOIN revisions r ON r.id = j.revision_id
       WHERE (j.status = 'done') <> (r.status = 'ready') OR (r.status = 'ready' AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.revision_id = r.id))`,
    );
    expect(torn.rows).toEqual([]);
    await prepareDb(copy);
    expect(await citations(copy)).toEqual(before);
  } finally {
    copy.client.close();
  }
}, 240_000);

it("refuses to restore over a database a running app holds, and changes nothing", async () => {
  const backupFile = join(live.dir, "second.db");
  expect((await cli("db-backup", backupFile, live.url)).code).toBe(0);
  const filesBefore = readdirSync(live.dir).sort();
  const refused = await cli("db-restore", backupFile, live.url);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/running app .* has .* open\. Stop it first; nothing was changed/);
  expect(readdirSync(live.dir).sort()).toEqual(filesBefore);
  // This process's connection still works on the same database.
  expect((await citations(live)).status).toBe("answered");
}, 180_000);

it("refuses a file that is not a sound database", async () => {
  const bogus = join(live.dir, "bogus.db");
  await import("node:fs").then((fs) => fs.writeFileSync(bogus, "not a database at all, just text ".repeat(200)));
  const target = join(live.dir, "target", "study.db");
  const r = await cli("db-restore", bogus, `file:${target}`);
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/not a database file|integrity/);
  expect(existsSync(target)).toBe(false);
}, 120_000);
