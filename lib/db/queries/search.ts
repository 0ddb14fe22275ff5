import "server-only";
import type { Client, Row } from "@libsql/client";
import type { Passage } from "@/lib/rag/pipeline";

export interface ScoredPassage {
  passage: Passage;
  /** Larger is better: negated bm25 for lexical hits, cosine similarity for dense ones. */
  score: number;
}

const passageColumns = `c.id AS chunk_id, c.revision_id, c.document_id, c.pdf_page, c.text, c.char_start,
  d.title AS document_title, r.number AS revision_number, r.is_correction, r.uploaded_at, p.page_label`;

/** Passages for candidate chunk seqs, keeping only current revisions of the course. */
async function currentPassages(client: Client, courseId: string, seqs: number[]): Promise<Map<number, Passage>> {
  const rs = await client.execute({
    sql: `SELECT c.seq, ${passageColumns}
          FROM chunks c
          JOIN documents d ON d.id = c.document_id AND d.current_revision_id = c.revision_id
          JOIN revisions r ON r.id = c.revision_id
          LEFT JOIN pages p ON p.revision_id = c.revision_id AND p.pdf_page = c.pdf_page
          WHERE c.seq IN (SELECT value FROM json_each(?)) AND c.course_id = ?`,
    args: [JSON.stringify(seqs), courseId],
  });
  return new Map(rs.rows.map((row) => [Number(row.seq), toPassage(row)]));
}

/**
 * Ranks candidates fetched from an index that also holds old revisions: widens the fetch until
 * `limit` current passages are found or the index has no more.
 */
async function topCurrent(
  client: Client,
  courseId: string,
  limit: number,
  fetchRanked: (fetch: number) => Promise<Array<{ seq: number; score: number }>>,
): Promise<ScoredPassage[]> {
  for (let fetch = limit * 3; ; fetch *= 4) {
    const ranked = await fetchRanked(fetch);
    const passages = await currentPassages(client, courseId, ranked.map((r) => r.seq));
    const out: ScoredPassage[] = [];
    for (const r of ranked) {
      const passage = passages.get(r.seq);
      if (passage) out.push({ passage, score: r.score });
      if (out.length === limit) break;
    }
    if (out.length >= limit || ranked.length < fetch) return out;
  }
}

function toPassage(row: Row): Passage {
  return {
    chunkId: String(row.chunk_id),
    revisionId: String(row.revision_id),
    documentId: String(row.document_id),
    documentTitle: String(row.document_title),
    revisionNumber: Number(row.revision_number),
    isCorrection: Number(row.is_correction) === 1,
    uploadedAt: new Date(Number(row.uploaded_at)).toISOString(),
    pdfPage: Number(row.pdf_page),
    pageLabel: row.page_label == null ? null : String(row.page_label),
    text: String(row.text),
    charStart: Number(row.char_start),
  };
}

/** FTS5 phrase syntax: the text becomes one quoted string, so nothing in it is an operator. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * BM25 top-k over the current revisions of one course. `match` must already be a safe FTS5
 * expression over the text column; the course filter runs inside FTS5 (weight 0 in bm25).
 */
export async function searchLexical(client: Client, { courseId, match, limit }: { courseId: string; match: string; limit: number }): Promise<ScoredPassage[]> {
  const expression = `course_id : ${ftsPhrase(courseId)} AND text : (${match})`;
  return topCurrent(client, courseId, limit, async (fetch) => {
    const rs = await client.execute({
      sql: "SELECT rowid AS seq, bm25(chunks_fts, 1.0, 0.0) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?",
      args: [expression, fetch],
    });
    return rs.rows.map((row) => ({ seq: Number(row.seq), score: -Number(row.score) }));
  });
}

/** Nearest chunks by cosine similarity through the libSQL vector index, current revisions of one course. */
export async function searchDense(client: Client, { courseId, vector, limit }: { courseId: string; vector: string; limit: number }): Promise<ScoredPassage[]> {
  return topCurrent(client, courseId, limit, async (fetch) => {
    const rs = await client.execute({
      sql: `SELECT v.chunk_seq AS seq, vector_distance_cos(v.embedding, vector32(?)) AS distance
            FROM vector_top_k('chunk_vectors_ann', vector32(?), ?) t JOIN chunk_vectors v ON v.rowid = t.id
            ORDER BY distance`,
      args: [vector, vector, fetch],
    });
    return rs.rows.map((row) => ({ seq: Number(row.seq), score: 1 - Number(row.distance) }));
  });
}
