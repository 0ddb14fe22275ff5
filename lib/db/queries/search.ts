import "server-only";
import type { Client, Row } from "@libsql/client";
import type { Passage } from "@/lib/rag/pipeline";
import { stemmer } from "stemmer";
import { sectionCarriedOver, sectionTitles, tableCarriedOver } from "@/lib/rag/extractive/units";
import { escapeRegExp } from "@/lib/rag/text/regexp";

export interface ScoredPassage {
  passage: Passage;
  /** Larger is better: negated bm25 for lexical hits, cosine similarity for dense ones. */
  score: number;
}

/** How much of its page before a chunk a passage carries: a few lines, for the section or table it continues. */
const BEFORE_CHARS = 1200;

const passageColumns = `c.id AS chunk_id, c.revision_id, c.document_id, c.pdf_page, c.text, c.char_start,
  substr(p.text, max(1, c.char_start - ${BEFORE_CHARS} + 1), min(c.char_start, ${BEFORE_CHARS})) AS before_text,
  CASE WHEN c.char_start < ${BEFORE_CHARS} THEN pp.text END AS previous_page_text,
  d.title AS document_title, r.number AS revision_number, r.is_correction, r.uploaded_at, r.scope_terms, p.page_label`;

/** The page before a chunk's, for a table or section it continues across the page break. */
const previousPage = "LEFT JOIN pages pp ON pp.revision_id = c.revision_id AND pp.pdf_page = c.pdf_page - 1";

/** Chunks joined with what a passage needs, kept only when their revision is the document's current one. */
const currentChunks = `FROM chunks c
  JOIN documents d ON d.id = c.document_id AND d.current_revision_id = c.revision_id
  JOIN revisions r ON r.id = c.revision_id
  LEFT JOIN pages p ON p.revision_id = c.revision_id AND p.pdf_page = c.pdf_page
  ${previousPage}`;

/** Passages for candidate chunk seqs, keeping only current revisions of the course. */
async function currentPassages(client: Client, courseId: string, seqs: number[]): Promise<Map<number, Passage>> {
  const rs = await client.execute({
    sql: `SELECT c.seq, ${passageColumns}
          ${currentChunks}
          WHERE c.seq IN (SELECT value FROM json_each(?)) AND c.course_id = ?`,
    args: [JSON.stringify(seqs), courseId],
  });
  return new Map(rs.rows.map((row) => [Number(row.seq), toPassage(row)]));
}

/**
 * Chunks of the course's current revisions by id, in the order asked; ids of another course, of an
 * old revision or of nothing are left out (an instructor's picks, checked before they are sent).
 */
export async function getCurrentPassages(client: Client, { courseId, chunkIds }: { courseId: string; chunkIds: string[] }): Promise<Passage[]> {
  const rs = await client.execute({
    sql: `SELECT ${passageColumns}
          ${currentChunks}
          WHERE c.id IN (SELECT value FROM json_each(?)) AND c.course_id = ?`,
    args: [JSON.stringify(chunkIds), courseId],
  });
  const byId = new Map(rs.rows.map((row) => [String(row.chunk_id), toPassage(row)]));
  return chunkIds.flatMap((id) => byId.get(id) ?? []);
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
  // Most courses index few old revisions: a quarter more than asked for usually suffices, and each fetched row costs a passage read.
  for (let fetch = limit + Math.max(8, Math.ceil(limit / 4)); ; fetch *= 4) {
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

/** The text above a chunk: its page's, after the header and rows of a table the previous page ends in when the chunk's page opens inside it, or else after the title of the section it runs on in. */
function before(row: Row): Pick<Passage, "before"> {
  const above = row.before_text ? String(row.before_text) : "";
  const previous = row.previous_page_text ? String(row.previous_page_text) : "";
  const carried = previous ? tableCarriedOver(previous, above) || sectionCarriedOver(previous, above) : "";
  const text = carried ? `${carried}\n${above}` : above;
  return text ? { before: text } : {};
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
    ...before(row),
    ...(row.scope_terms ? { scopeTerms: JSON.parse(String(row.scope_terms)) as string[] } : {}),
  };
}

/** FTS5 phrase syntax: the text becomes one quoted string, so nothing in it is an operator. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * How many posting entries one lexical query may score. BM25 over FTS5 costs about one unit per
 * matching row, so a question's terms are taken rarest first while their document frequencies
 * fit this budget: on a small course every term is used; on a large one the common words, which
 * carry little BM25 weight but match most chunks, stop generating candidates.
 */
const POSTINGS_BUDGET = 4_000;

/** Per database (a process may open several, as the evaluation does): counts of one never plan another's queries. */
const statsCaches = new WeakMap<Client, Map<string, { at: number; value: number }>>();
/**
 * Row counts change only with ingestion, and they only plan a query: which terms it uses and where
 * it filters by course, never which chunks match. Counting a large course's rows takes ~0.1 s, so
 * they are kept for minutes, not paid for by a question every few seconds.
 */
const COUNT_TTL_MS = 5 * 60_000;
async function cachedCount(client: Client, key: string, sql: string, args: string[] = []): Promise<number> {
  let statsCache = statsCaches.get(client);
  if (!statsCache) statsCaches.set(client, (statsCache = new Map()));
  const hit = statsCache.get(key);
  if (hit && Date.now() - hit.at < COUNT_TTL_MS) return hit.value;
  const rs = await client.execute({ sql, args });
  const value = Number(rs.rows[0]?.n ?? 0);
  statsCache.set(key, { at: Date.now(), value });
  return value;
}

/**
 * The index stems with Porter's algorithm, so "faults" and "fault" match the same postings; as two
 * OR-ed phrases they would count twice in BM25, and an inflected question word would outweigh a
 * rarer word typed in its base form. One word per stem, the first given (the question's own form).
 */
export function oneWordPerStem(words: readonly string[]): string[] {
  const byStem = new Map<string, string>();
  for (const w of words) {
    const stem = stemmer(w);
    if (!byStem.has(stem)) byStem.set(stem, w);
  }
  return [...byStem.values()];
}

/** User words as FTS5 strings: quoted, so quotes, AND/OR/NOT, NEAR, `*`, `^`, `:` and parentheses are only words. */
function quoted(words: string[], op: "OR" | "AND"): string {
  return words.map((w) => ftsPhrase(w)).join(` ${op} `);
}

/** An FTS5 expression over the text column, within `scope` (a course filter) when there is one. */
const within = (scope: string | null, textMatch: string) => (scope ? `${scope} AND text : (${textMatch})` : `text : (${textMatch})`);

/**
 * A term's document frequency within what the query searches (`scope`: a course filter, or null
 * for the whole index), counted no further than just past the budget: past it, only "over" matters.
 */
async function cappedDf(client: Client, word: string, scope: string | null): Promise<number> {
  return cachedCount(
    client,
    `df:${scope ?? ""}:${word}`,
    `SELECT count(*) AS n FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ${POSTINGS_BUDGET + 1})`,
    [within(scope, ftsPhrase(word))],
  );
}

/**
 * The FTS5 plan for a question's terms within the postings budget. When even the rarest term is
 * over it (a question of common words only), all its terms must match, falling back to two of
 * them if that finds too little; those queries score only the newest budget's worth of matches
 * (`sampled`), since scoring every chunk that holds common words is what made a large course slow.
 * `size` is the number of chunks searched; counts are taken within `scope` when the course is
 * filtered inside FTS5, so a small course plans as it would alone, whatever else the index holds.
 */
async function planMatch(client: Client, words: string[], size: number, scope: string | null): Promise<{ primary: string; fallback: string | null; sampled: boolean }> {
  if (size <= POSTINGS_BUDGET) return { primary: quoted(words, "OR"), fallback: null, sampled: false };
  const df = new Map<string, number>();
  for (const w of words) df.set(w, await cappedDf(client, w, scope));
  // Among terms over the budget, whose counts were cut short, the longer is taken as the rarer (Zipf's law of abbreviation).
  const present = words.filter((w) => df.get(w)! > 0).sort((a, b) => df.get(a)! - df.get(b)! || b.length - a.length);
  if (present.length === 0) return { primary: quoted(words, "OR"), fallback: null, sampled: false };
  if (df.get(present[0])! > POSTINGS_BUDGET) {
    return { primary: quoted(present, "AND"), fallback: present.length > 2 ? quoted(present.slice(0, 2), "OR") : null, sampled: true };
  }
  const chosen: string[] = [];
  let postings = 0;
  for (const w of present) {
    if (postings + df.get(w)! > POSTINGS_BUDGET) break;
    chosen.push(w);
    postings += df.get(w)!;
  }
  return { primary: quoted(chosen, "OR"), fallback: null, sampled: false };
}

/**
 * BM25 top-k over the current revisions of one course, for plain search terms (never FTS5
 * syntax). A course that is a small part of the index is filtered inside FTS5; a dominant one
 * is filtered afterwards, which is cheaper than intersecting with its whole posting list.
 */
export async function searchLexical(
  client: Client,
  { courseId, terms, limit }: { courseId: string; terms: string[]; limit: number },
): Promise<{ expression: string | null; hits: ScoredPassage[] }> {
  const words = oneWordPerStem(terms.flatMap((t) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []));
  if (words.length === 0) return { expression: null, hits: [] };
  const total = await cachedCount(client, "chunks", "SELECT max(seq) AS n FROM chunks");
  const inCourse = await cachedCount(client, `course:${courseId}`, "SELECT count(*) AS n FROM chunks WHERE course_id = ?", [courseId]);
  const courseFilter = inCourse * 2 < total ? `course_id : ${ftsPhrase(courseId)}` : null;
  const plan = await planMatch(client, words, courseFilter ? inCourse : total, courseFilter);
  // FTS5 streams matches in rowid order and stops at the inner LIMIT; ORDER BY score alone would score every match first.
  const matches = plan.sampled
    ? `(SELECT rowid, bm25(chunks_fts, 1.0, 0.0) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rowid DESC LIMIT ${POSTINGS_BUDGET})`
    : null;
  const run = (match: string) =>
    topCurrent(client, courseId, limit, async (fetch) => {
      const rs = await client.execute({
        sql: matches
          ? `SELECT rowid AS seq, score FROM ${matches} ORDER BY score LIMIT ?`
          : "SELECT rowid AS seq, bm25(chunks_fts, 1.0, 0.0) AS score FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?",
        args: [within(courseFilter, match), fetch],
      });
      return rs.rows.map((row) => ({ seq: Number(row.seq), score: -Number(row.score) }));
    });
  let hits = await run(plan.primary);
  let expression = plan.primary;
  if (hits.length < limit && plan.fallback) {
    const more = await run(plan.fallback);
    const seen = new Set(hits.map((h) => h.passage.chunkId));
    hits = [...hits, ...more.filter((h) => !seen.has(h.passage.chunkId))].slice(0, limit);
    expression = `${plan.primary} ; then ${plan.fallback}`;
  }
  return { expression: plan.sampled ? `${expression} (newest ${POSTINGS_BUDGET} matches scored)` : expression, hits };
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

/** How many candidate chunks a row lookup reads before checking their headers. */
const ROW_CANDIDATES = 40;
/** How many of the newest chunks naming an identifier's noun say which pages a row lookup reads. */
const NAMED_PAGES = 200;

/**
 * Chunks of the course's current revisions holding a table row that opens with an identifier's
 * id ("5 Sep 22–26 …" for week 5) under a header row naming its noun ("Week Dates Topics …") on
 * the same page: a row a chunk boundary cut from its header has neither the noun nor the other
 * columns' names, so BM25 ranks it low.
 */
export async function searchRows(client: Client, { courseId, noun, id, limit }: { courseId: string; noun: string; id: string; limit: number }): Promise<ScoredPassage[]> {
  // The pages that name the noun somewhere (the header row's chunk), then their chunks holding a line that opens with the id: a few pages, read through the (revision, page) index (CROSS JOIN keeps that order). A page with no stored text has no header to check.
  const rs = await client.execute({
    sql: `WITH named AS (
            SELECT DISTINCT n.revision_id, n.pdf_page FROM chunks n
            WHERE n.seq IN (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?1 ORDER BY rowid DESC LIMIT ${NAMED_PAGES})
          ), spread AS (SELECT revision_id, pdf_page FROM named UNION SELECT revision_id, pdf_page + 1 FROM named)
          SELECT ${passageColumns}, p.text AS page_text
          FROM spread w
          CROSS JOIN chunks c ON c.revision_id = w.revision_id AND c.pdf_page = w.pdf_page
          JOIN documents d ON d.id = c.document_id AND d.current_revision_id = c.revision_id
          JOIN revisions r ON r.id = c.revision_id
          JOIN pages p ON p.revision_id = c.revision_id AND p.pdf_page = c.pdf_page
          ${previousPage}
          WHERE c.course_id = ?2 AND (c.text LIKE ?3 || ' %' OR instr(c.text, char(10) || ?3 || ' ') > 0)
          ORDER BY c.seq LIMIT ${ROW_CANDIDATES}`,
    args: [`course_id : ${ftsPhrase(courseId)} AND text : ${ftsPhrase(noun)}`, courseId, id],
  });
  const names = new RegExp(`\\b${escapeRegExp(noun)}`, "i");
  /** Whether the last section title of a text is a header row naming the noun. */
  const headerNames = (text: string) => {
    const header = sectionTitles(text).at(-1);
    return !!header && names.test(text.slice(header.start, header.end));
  };
  const out: ScoredPassage[] = [];
  for (const row of rs.rows) {
    const page = String(row.page_text);
    const start = Number(row.char_start);
    const text = String(row.text);
    const at = text.startsWith(`${id} `) ? 0 : text.indexOf(`\n${id} `) + 1;
    // The header is above the row on its page, or on the page before when the table goes on across the break.
    const above = page.slice(0, start + at);
    if (headerNames(above) || (row.previous_page_text && headerNames(tableCarriedOver(String(row.previous_page_text), above)))) out.push({ passage: toPassage(row), score: 1 });
    if (out.length === limit) break;
  }
  return out;
}

/** The scope words of each current document of the course (its title line and running headers, kept at ingestion): what names the course, not an answer. */
export async function courseScopes(client: Client, { courseId }: { courseId: string }): Promise<string[][]> {
  const rs = await client.execute({
    sql: "SELECT r.scope_terms FROM documents d JOIN revisions r ON r.id = d.current_revision_id WHERE d.course_id = ? AND d.deleted_at IS NULL AND r.scope_terms IS NOT NULL",
    args: [courseId],
  });
  return rs.rows.map((row) => JSON.parse(String(row.scope_terms)) as string[]);
}
