import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "@/lib/ai/tokenizer";
import { extractiveGenerator } from "@/lib/ai/generators";
import type { DbHandle } from "@/lib/db/client";
import { ensureCourse } from "@/lib/db/queries/courses";
import { insertPlainDocument } from "@/lib/db/plain-documents";
import { openTempDb } from "@/lib/db/temp";
import { answerQuestion, type AskDeps } from "@/lib/rag/pipeline";
import { databasePorts, defaultAskSettings } from "@/lib/server/ask";

const SCIFACT = join(process.cwd(), "..", "shared", "bench", "scifact");

/**
 * Real sentences: SciFact abstracts, as passages of a few sentences each, made one at a time so a
 * course is never held in memory. Windows within an abstract (stepping by one sentence for the
 * larger courses) give about 170k passages; past those, each passage joins three sentences of
 * three different abstracts, with another stride each round.
 */
function* passages(target: number): Generator<string> {
  const lines = readFileSync(join(SCIFACT, "corpus.jsonl"), "utf8").split("\n").filter(Boolean);
  const docs = lines.map((l) => JSON.parse(l) as { title: string; text: string });
  const sentences = docs.map((d) => [d.title, ...d.text.split(/(?<=[.!?])\s+/)].filter((s) => s.length > 20));
  let n = 0;
  for (let width = 4; width >= 1; width--) {
    for (const s of sentences) {
      for (let i = 0; i + width <= s.length; i += n * 2 < target ? width : 1) {
        if (n++ === target) return;
        yield s.slice(i, i + width).join(" ");
      }
    }
  }
  const flat = sentences.flat();
  for (let round = 1; ; round++) {
    // A prime stride of thousands of sentences lands in other abstracts.
    const stride = (round * 7919) % flat.length;
    for (let i = 0; i < flat.length; i++) {
      if (n++ === target) return;
      yield [flat[i], flat[(i + stride) % flat.length], flat[(i + 2 * stride) % flat.length]].join(" ");
    }
  }
}

export function questions(): string[] {
  const claims = readFileSync(join(SCIFACT, "queries.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { text: string }).text);
  const common = [
    "What is the main result of the study and what does it show?",
    "How does this work and when is it used?",
    "What are the effects of the treatment in the patients?",
    "Is there an association between the two and what is the risk?",
    "What is the role of the cells in the response?",
  ];
  // Claims rephrased as questions, and many made mostly of common words.
  return [...claims.slice(0, 250).map((c) => `Is it true that ${c.replace(/\.$/, "")}?`), ...Array.from({ length: 50 }, (_, i) => common[i % common.length])];
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A course of `size` chunks in 500-chunk documents, written into `db` one document a statement. */
export async function courseOf(db: DbHandle, size: number): Promise<{ courseId: string; joinCode: string; chunks: number }> {
  const course = await ensureCourse(db.db, { slug: `bench-${size}` });
  const perDoc = 500;
  let chunks = 0;
  let batch: string[] = [];
  const flush = async () => {
    await insertPlainDocument(db.client, { courseId: course.id, title: `SciFact part ${chunks / perDoc + 1}`, texts: batch });
    chunks += batch.length;
    batch = [];
  };
  for (const text of passages(size)) {
    batch.push(text);
    if (batch.length === perDoc) await flush();
  }
  if (batch.length) await flush();
  await db.client.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')");
  return { courseId: course.id, joinCode: course.joinCode, chunks };
}

/** The reference query runs for one question in this many (claims and common-word questions alike). */
const REFERENCE_STRIDE = 5;

/** Default course sizes; `npm run bench -- ask --chunks 1000000` measures others. */
export const DEFAULT_COURSE_SIZES = [10_000, 100_000];

export async function benchQuestions(sizes: number[] = DEFAULT_COURSE_SIZES): Promise<void> {
  if (!existsSync(SCIFACT)) throw new Error(`${SCIFACT} is missing: the question benchmark builds its courses from ../shared/bench/scifact.`);
  const qs = questions();
  const mb = (b: number) => (b / (1024 * 1024)).toFixed(0);
  console.log(`\n## Question path: retrieve + gate + pack + extractive generate + validate + decide (${qs.length} questions)\n`);
  console.log(`Reference: the bare FTS5 top-8 for the question's words (OR), in the same process on the same file, for every ${REFERENCE_STRIDE}th question.\n`);
  console.log("| course | chunks | build s | file MB | p50 ms | p95 ms | p99 ms | common-word p95 ms | reference p95 ms | p95 ÷ reference | RSS after build → 1st half → end (MB) |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const size of sizes) {
    const db = await openTempDb();
    const t0 = performance.now();
    const { courseId, chunks } = await courseOf(db, size);
    const buildS = (performance.now() - t0) / 1000;
    const rssBuilt = process.memoryUsage().rss;
    const fileMb = mb(statSync(join(db.dir, "study.db")).size);
    const deps: AskDeps = { retrievePorts: databasePorts(db, courseId), generator: extractiveGenerator(), countTokens, settings: defaultAskSettings, newTraceId: () => "bench" };
    const run = async (q: string) => {
      const t0 = performance.now();
      const it = answerQuestion({ courseId, question: q, history: [] }, deps);
      while (!(await it.next()).done);
      return performance.now() - t0;
    };
    const reference = async (q: string) => {
      const words = [...new Set(q.toLowerCase().match(/[a-z0-9]+/g) ?? [])].map((w) => `"${w}"`).join(" OR ");
      const t0 = performance.now();
      await db.client.execute({ sql: "SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT 8", args: [`text : (${words})`] });
      return performance.now() - t0;
    };
    for (const q of qs.slice(0, 20)) await run(q); // warm caches, as a running server would be
    const times: number[] = [];
    const refs: number[] = [];
    let rssHalf = 0;
    for (const [i, q] of qs.entries()) {
      times.push(await run(q));
      if (i === Math.floor(qs.length / 2)) rssHalf = process.memoryUsage().rss;
    }
    // After the questions, not between them: on a large course each bare query reads most of the
    // file, and interleaved it evicted from the page cache what the next question read (a stall of
    // ~0.2 s a question at 1M chunks here, in whichever stage next touched the disk). Every
    // REFERENCE_STRIDE-th question: at 1M chunks each takes seconds, and all 300 took 15 minutes.
    for (const q of qs.filter((_, i) => i % REFERENCE_STRIDE === 0)) refs.push(await reference(q));
    const common = times.slice(250).sort((a, b) => a - b);
    const sorted = [...times].sort((a, b) => a - b);
    const refP95 = percentile([...refs].sort((a, b) => a - b), 95);
    console.log(
      `| ${size / 1000}k | ${chunks} | ${buildS.toFixed(1)} | ${fileMb} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 95).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${percentile(common, 95).toFixed(1)} | ${refP95.toFixed(1)} | ${(percentile(sorted, 95) / refP95).toFixed(2)} | ${mb(rssBuilt)} → ${mb(rssHalf)} → ${mb(process.memoryUsage().rss)} |`,
    );
    db.dispose();
  }
  console.log(`\npeak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}
