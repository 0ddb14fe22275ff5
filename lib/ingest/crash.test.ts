/**
 * A real crash: the CLI ingests a large PDF in a child process, which is killed with SIGKILL in
 * the middle of indexing. Its lease keeps the job from other workers until it expires; then
 * another worker takes the job over and finishes it: nothing lost, nothing duplicated, and the
 * previous revision stayed current throughout.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { countTokens } from "@/lib/ai/tokenizer";
import { ensureCourse } from "@/lib/db/queries/courses";
import { getDocumentsWithRevisions } from "@/lib/db/queries/documents";
import { searchLexical } from "@/lib/db/queries/search";
import { chunks, ingestionJobs, revisions } from "@/lib/db/schema";
import { openTempDb } from "@/lib/db/temp";
import { buildLargePdf, buildPdf, largePdfPageFact } from "@/lib/pdf/build";
import { submitUpload } from "./upload";
import { processQueuedJobs } from "./worker";

const deps = { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 8 };
/** The child's lease: long enough that it is certainly still held right after the kill (renewals come every third of it). */
const CHILD_LEASE_MS = 3000;
let db: Awaited<ReturnType<typeof openTempDb>>;

beforeAll(async () => {
  db = await openTempDb();
});
afterAll(() => db.dispose());

it("after the ingesting process is killed, another worker finishes its job once the lease expires, without loss or duplicates", async () => {
  const course = await ensureCourse(db.db, { slug: "crash" });
  const first = await submitUpload(db.db, { courseId: course.id, fileName: "reader.pdf", title: "Reader", bytes: await buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text: "The first edition of the reader." }] }] }), maxBytes: 1 << 26 });
  await processQueuedJobs(db, deps);

  const big = join(db.dir, "reader.pdf");
  writeFileSync(big, await buildLargePdf(300));
  // node itself, not npx: SIGKILL must reach the process doing the work, not a wrapper.
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/ingest.ts", "--course", "crash", "--title", "Reader", big], {
    env: { ...process.env, DATABASE_URL: db.url, INGEST_LEASE_MS: String(CHILD_LEASE_MS), INGEST_WORKER_ID: "wrk_crashing_cli" },
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  // Kill it once the new revision's chunks have started to land, before it is published.
  let killedDuring = "";
  for (let i = 0; i < 600 && !killedDuring; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const [rev] = await db.db.select().from(revisions).where(eq(revisions.number, 2));
    if (rev && (rev.status === "indexing" || rev.status === "extracting") && rev.progress > 50) {
      child.kill("SIGKILL");
      killedDuring = rev.status;
    }
  }
  await exited;
  expect(killedDuring, "the child was killed mid-ingestion").not.toBe("");

  let [doc] = await getDocumentsWithRevisions(db.db, { courseId: course.id });
  expect(doc.currentRevisionId).toBe(first.revision.id);
  expect(doc.revisions[0].status).not.toBe("ready");
  const hits = await searchLexical(db.client, { courseId: course.id, terms: ["first", "edition"], limit: 3 });
  expect(hits.hits.map((h) => h.passage.revisionId)).toEqual([first.revision.id]);

  // The dead process still holds the job: another worker leaves it alone until the lease expires.
  const survivor = { ...deps, leaseMs: 1000, workerId: "wrk_survivor" };
  const [held] = await db.db.select().from(ingestionJobs).where(eq(ingestionJobs.revisionId, doc.revisions[0].id));
  expect(held).toMatchObject({ status: "running", attempts: 1, leaseOwner: "wrk_crashing_cli" });
  expect(await processQueuedJobs(db, survivor)).toBe(0);
  await new Promise((r) => setTimeout(r, held.leaseUntil!.getTime() - Date.now() + 20));
  expect(await processQueuedJobs(db, survivor)).toBe(1);
  [doc] = await getDocumentsWithRevisions(db.db, { courseId: course.id });
  expect(doc.revisions[0].error).toBeNull();
  expect(doc.revisions[0]).toMatchObject({ number: 2, status: "ready", pageCount: 300 });
  expect(doc.currentRevisionId).toBe(doc.revisions[0].id);
  const [job] = await db.db.select().from(ingestionJobs).where(eq(ingestionJobs.revisionId, doc.revisions[0].id));
  expect(job).toMatchObject({ status: "done", attempts: 2, leaseOwner: "wrk_survivor" });

  // Exactly the chunks a clean run produces: compare with a fresh ingestion of the same bytes.
  const clean = await openTempDb();
  const cleanCourse = await ensureCourse(clean.db, { slug: "clean" });
  await submitUpload(clean.db, { courseId: cleanCourse.id, fileName: "reader.pdf", bytes: new Uint8Array((await import("node:fs")).readFileSync(big)), maxBytes: 1 << 26 });
  await processQueuedJobs(clean, deps);
  const [{ n: expected }] = await clean.db.select({ n: count() }).from(chunks);
  clean.dispose();
  const rows = await db.db.select({ id: chunks.id }).from(chunks).where(eq(chunks.revisionId, doc.revisions[0].id));
  expect(rows.length).toBe(expected);
  expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
  const fact = await searchLexical(db.client, { courseId: course.id, terms: largePdfPageFact(217).split(/\s+/), limit: 1 });
  expect(fact.hits[0].passage.pdfPage).toBe(217);
});
