import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ensureCourse } from "@/lib/db/queries/courses";
import { searchLexical } from "@/lib/db/queries/search";
import { documents, revisions } from "@/lib/db/schema";
import { openTempDb } from "@/lib/db/temp";
import { newId } from "@/lib/ids";
import { analyzeQuestion } from "@/lib/rag/pipeline";

const SCIFACT = join(process.cwd(), "..", "shared", "bench", "scifact");

/** nDCG@k with binary relevance, as BEIR reports it. */
function ndcg(ranked: string[], relevant: Set<string>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return ideal ? dcg / ideal : 0;
}

/**
 * Retrieval quality of the product's lexical search on BEIR SciFact (test split, 300 queries),
 * one chunk per abstract, against the published BM25 baselines (nDCG@10 0.665–0.679), and
 * against the same index queried without the common-term pruning.
 */
export async function benchRetrieval(): Promise<void> {
  const db = await openTempDb();
  const course = await ensureCourse(db.db, { slug: "scifact" });
  const documentId = newId("doc");
  const revisionId = newId("rev");
  await db.db.insert(documents).values({ id: documentId, courseId: course.id, title: "SciFact" });
  await db.db.insert(revisions).values({ id: revisionId, documentId, number: 1, sha256: "bench", fileName: "scifact", size: 0, status: "ready" });
  const docs = readFileSync(join(SCIFACT, "corpus.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { _id: string; title: string; text: string });
  for (let i = 0; i < docs.length; i += 500) {
    await db.client.batch(
      docs.slice(i, i + 500).map((d) => {
        const text = `${d.title} ${d.text}`;
        return {
          sql: "INSERT INTO chunks (id, revision_id, document_id, course_id, pdf_page, ordinal, text, char_start, char_end, tokens) VALUES (?, ?, ?, ?, 1, 0, ?, 0, ?, 0)",
          args: [d._id, revisionId, documentId, course.id, text, text.length],
        };
      }),
      "write",
    );
  }
  await db.client.execute({ sql: "UPDATE documents SET current_revision_id = ? WHERE id = ?", args: [revisionId, documentId] });
  const queries = new Map(readFileSync(join(SCIFACT, "queries.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => {
    const q = JSON.parse(l) as { _id: string; text: string };
    return [q._id, q.text];
  }));
  const qrels = new Map<string, Set<string>>();
  for (const line of readFileSync(join(SCIFACT, "qrels", "test.tsv"), "utf8").split("\n").slice(1).filter(Boolean)) {
    const [q, d] = line.split("\t");
    qrels.set(q, (qrels.get(q) ?? new Set()).add(d));
  }
  const chunkIdToDoc = (id: string) => id;
  let ours = 0;
  let full = 0;
  let oursRecall = 0;
  let tOurs = 0;
  let tFull = 0;
  for (const [qid, relevant] of qrels) {
    const words = analyzeQuestion(queries.get(qid)!).searchTerms;
    let t0 = performance.now();
    const { hits } = await searchLexical(db.client, { courseId: course.id, terms: words, limit: 100 });
    tOurs += performance.now() - t0;
    const ranked = hits.map((h) => chunkIdToDoc(h.passage.chunkId));
    ours += ndcg(ranked, relevant, 10);
    oursRecall += [...relevant].filter((d) => ranked.includes(d)).length / relevant.size;
    t0 = performance.now();
    const rs = await db.client.execute({
      sql: "SELECT c.id FROM chunks_fts JOIN chunks c ON c.seq = chunks_fts.rowid WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts, 1.0, 0.0) LIMIT 10",
      args: [`text : (${[...new Set(words.map((w: string) => w.toLowerCase()))].map((w) => `"${w}"`).join(" OR ")})`],
    });
    tFull += performance.now() - t0;
    full += ndcg(rs.rows.map((r) => String(r.id)), relevant, 10);
  }
  const n = qrels.size;
  console.log(`\n## Retrieval quality: BEIR SciFact test (${n} queries, ${docs.length} abstracts, one chunk each)\n`);
  console.log("| search | nDCG@10 | Recall@100 | mean ms/query |");
  console.log("|---|---:|---:|---:|");
  console.log(`| product lexical search (postings budget) | ${(ours / n).toFixed(4)} | ${(oursRecall / n).toFixed(4)} | ${(tOurs / n).toFixed(2)} |`);
  console.log(`| same index, all terms OR-ed (reference) | ${(full / n).toFixed(4)} | – | ${(tFull / n).toFixed(2)} |`);
  console.log("| published BM25 (BEIR paper / Anserini flat) | 0.665 / 0.679 | 0.908 / 0.925 | – |");
  db.dispose();
}
