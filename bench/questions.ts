import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "@/lib/ai/tokenizer";
import { extractiveGenerator } from "@/lib/ai/generators";
import { ensureCourse } from "@/lib/db/queries/courses";
import { documents, revisions } from "@/lib/db/schema";
import { openTempDb } from "@/lib/db/temp";
import { newId } from "@/lib/ids";
import { answerQuestion, type AskDeps } from "@/lib/rag/pipeline";
import { databasePorts, defaultAskSettings } from "@/lib/server/ask";

const SCIFACT = join(process.cwd(), "..", "shared", "bench", "scifact");

/** Real sentences: SciFact abstracts, as passages of a few sentences each (windows step by one sentence for the larger course). */
function passages(target: number): string[] {
  const lines = readFileSync(join(SCIFACT, "corpus.jsonl"), "utf8").split("\n").filter(Boolean);
  const docs = lines.map((l) => JSON.parse(l) as { title: string; text: string });
  const sentences = docs.map((d) => [d.title, ...d.text.split(/(?<=[.!?])\s+/)].filter((s) => s.length > 20));
  const out: string[] = [];
  for (let width = 4; out.length < target && width >= 1; width--) {
    for (const s of sentences) {
      for (let i = 0; i + width <= s.length && out.length < target; i += out.length * 2 < target ? width : 1) out.push(s.slice(i, i + width).join(" "));
    }
  }
  return out.slice(0, target);
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

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function courseOf(size: number, dbFactory: () => ReturnType<typeof openTempDb> = openTempDb) {
  const db = await dbFactory();
  const course = await ensureCourse(db.db, { slug: `bench-${size}` });
  const texts = passages(size);
  const perDoc = 500;
  for (let d = 0; d * perDoc < texts.length; d++) {
    const documentId = newId("doc");
    const revisionId = newId("rev");
    await db.db.insert(documents).values({ id: documentId, courseId: course.id, title: `SciFact part ${d + 1}` });
    await db.db.insert(revisions).values({ id: revisionId, documentId, number: 1, sha256: "bench", fileName: "bench.pdf", size: 0, status: "ready" });
    const slice = texts.slice(d * perDoc, (d + 1) * perDoc);
    await db.client.batch(
      slice.map((text, i) => ({
        sql: "INSERT INTO chunks (id, revision_id, document_id, course_id, pdf_page, ordinal, text, char_start, char_end, tokens) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
        args: [`${revisionId}-${i}`, revisionId, documentId, course.id, Math.floor(i / 5) + 1, i % 5, text, text.length, Math.ceil(text.length / 4)],
      })),
      "write",
    );
    await db.client.execute({ sql: "UPDATE documents SET current_revision_id = ? WHERE id = ?", args: [revisionId, documentId] });
  }
  await db.client.execute("INSERT INTO chunks_fts(chunks_fts) VALUES ('optimize')");
  return { db, courseId: course.id, chunks: texts.length };
}

export async function benchQuestions(): Promise<void> {
  if (!existsSync(SCIFACT)) throw new Error(`${SCIFACT} is missing: the question benchmark builds its courses from ../shared/bench/scifact.`);
  const qs = questions();
  console.log(`\n## Question path: retrieve + gate + pack + extractive generate + validate + decide (${qs.length} questions)\n`);
  console.log("Reference: the bare FTS5 top-8 for the question's words (OR), in the same process on the same file.\n");
  console.log("| course | chunks | p50 ms | p95 ms | p99 ms | common-word p95 ms | reference p95 ms | p95 ÷ reference | RSS after 1st half → end (MB) |");
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const size of [10_000, 100_000]) {
    const { db, courseId, chunks } = await courseOf(size);
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
      refs.push(await reference(q));
      times.push(await run(q));
      if (i === Math.floor(qs.length / 2)) rssHalf = process.memoryUsage().rss;
    }
    const common = times.slice(250).sort((a, b) => a - b);
    const sorted = [...times].sort((a, b) => a - b);
    const refP95 = percentile([...refs].sort((a, b) => a - b), 95);
    const mb = (b: number) => (b / (1024 * 1024)).toFixed(0);
    console.log(
      `| ${size / 1000}k | ${chunks} | ${percentile(sorted, 50).toFixed(1)} | ${percentile(sorted, 95).toFixed(1)} | ${percentile(sorted, 99).toFixed(1)} | ${percentile(common, 95).toFixed(1)} | ${refP95.toFixed(1)} | ${(percentile(sorted, 95) / refP95).toFixed(2)} | ${mb(rssHalf)} → ${mb(process.memoryUsage().rss)} |`,
    );
    db.dispose();
  }
  console.log(`\npeak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}
