import type { Hit, Passage, RetrieveState } from "./types";
import { StageError } from "./errors";

export interface ScoredCandidate {
  passage: Passage;
  score: number;
}

/** Where retrieval reads from; the database supplies these, tests may supply their own. */
export interface RetrievePorts {
  /** BM25 over plain terms; reports the expression it ran (terms are never parsed as query syntax). */
  lexical(terms: string[], limit: number): Promise<{ expression: string | null; hits: ScoredCandidate[] }>;
  /** Present only when an embedding model is configured. */
  dense?: (query: string, limit: number) => Promise<ScoredCandidate[]>;
  /** The scope words of each document searched (title line, running headers). */
  scopes?: () => Promise<readonly (readonly string[])[]>;
  /** Chunks holding a table row that opens with an identifier's id under a header row naming its noun ("5 Sep 22–26 …" under "Week Dates …"). */
  rows?: (noun: string, id: string, limit: number) => Promise<ScoredCandidate[]>;
}

/** The lookup itself failed (database, embedding endpoint): never a statement about the notes. */
export class RetrievalError extends StageError {
  override readonly name = "RetrievalError";
  readonly stage = "retrieve";
  constructor(message: string, cause?: unknown) {
    super(message, cause);
  }
}

export function isRetrievalError(e: unknown): e is RetrievalError {
  return e instanceof RetrievalError;
}

/** The scope words of the documents searched, or none when the ports do not know them. Throws RetrievalError when the lookup fails. */
export async function scopesOf(ports: RetrievePorts): Promise<readonly (readonly string[])[]> {
  try {
    return ports.scopes ? await ports.scopes() : [];
  } catch (e) {
    throw new RetrievalError(`The search failed: ${(e as Error).message}`, e);
  }
}

/** How many rows one identifier looks up: its own row, and a second chunk where a boundary cut the row. */
const ROWS_PER_ID = 2;

/**
 * The table rows the question's identifiers name ("week 5" → the row opening with 5 under a
 * "Week" header), ranked in page order, or null when there are none to look up. Throws
 * RetrievalError when the lookup fails.
 */
export async function retrieveRows({ query, ids }: { query: string; ids: ReadonlyArray<{ noun: string; id: string }> }, ports: RetrievePorts): Promise<RetrieveState | null> {
  const { rows } = ports;
  if (!rows || ids.length === 0) return null;
  let found: ScoredCandidate[];
  try {
    found = (await Promise.all(ids.map((r) => rows(r.noun, r.id, ROWS_PER_ID)))).flat();
  } catch (e) {
    throw new RetrievalError(`The search failed: ${(e as Error).message}`, e);
  }
  if (found.length === 0) return null;
  const hits = found.map(({ passage, score }, i) => ({ passage, lexicalScore: score, lexicalRank: i + 1, denseScore: null, denseRank: null, fusedScore: 1 / (RRF_K + i + 1), rank: i + 1 }));
  return { query, matchExpression: ids.map((r) => `row ${r.id} under “${r.noun}”`).join(" ; "), hits, dense: Boolean(ports.dense) };
}

/** Reciprocal-rank fusion constant (Cormack et al.): damps the head so neither list dominates. */
const RRF_K = 60;

/**
 * retrieve: top-k hits, ranks 1..n without gaps; each hit keeps every retriever's score and
 * rank. Throws RetrievalError when a lookup fails.
 */
export async function retrieve({ query, terms, k }: { query: string; terms: string[]; k: number }, ports: RetrievePorts): Promise<RetrieveState> {
  let lexical: ScoredCandidate[] = [];
  let dense: ScoredCandidate[] = [];
  let match: string | null = null;
  try {
    const [lex, den] = await Promise.all([
      terms.length ? ports.lexical(terms, k) : Promise.resolve({ expression: null, hits: [] }),
      ports.dense ? ports.dense(query, k) : Promise.resolve([]),
    ]);
    ({ expression: match, hits: lexical } = lex);
    dense = den;
  } catch (e) {
    throw new RetrievalError(`The search failed: ${(e as Error).message}`, e);
  }

  const byChunk = new Map<string, Omit<Hit, "rank">>();
  const add = (list: ScoredCandidate[], kind: "lexical" | "dense") =>
    list.forEach(({ passage, score }, i) => {
      const hit = byChunk.get(passage.chunkId) ?? { passage, lexicalScore: null, lexicalRank: null, denseScore: null, denseRank: null, fusedScore: 0 };
      if (kind === "lexical") Object.assign(hit, { lexicalScore: score, lexicalRank: i + 1 });
      else Object.assign(hit, { denseScore: score, denseRank: i + 1 });
      hit.fusedScore += 1 / (RRF_K + i + 1);
      byChunk.set(passage.chunkId, hit);
    });
  add(lexical, "lexical");
  add(dense, "dense");

  const hits = [...byChunk.values()]
    // Ties break on where the passage is, not on its random id: the same course gives the same order in every database.
    .sort(
      (a, b) =>
        b.fusedScore - a.fusedScore ||
        (b.lexicalScore ?? -Infinity) - (a.lexicalScore ?? -Infinity) ||
        a.passage.documentTitle.localeCompare(b.passage.documentTitle) ||
        a.passage.pdfPage - b.passage.pdfPage ||
        a.passage.charStart - b.passage.charStart ||
        a.passage.chunkId.localeCompare(b.passage.chunkId),
    )
    .slice(0, k)
    .map((h, i) => ({ ...h, rank: i + 1 }));
  return { query, matchExpression: match, hits, dense: Boolean(ports.dense) };
}

/**
 * Several requested parts, one list: each part's own retrieval interleaved by rank (part 1's
 * best, part 2's best, …), duplicates dropped, at most `k` per part. A two-part question gets
 * evidence for both parts even when one part's words dominate the other's.
 */
export function interleave(states: RetrieveState[], k: number): RetrieveState {
  if (states.length === 1) return states[0];
  const seen = new Set<string>();
  const hits: Hit[] = [];
  for (let i = 0; i < k; i++) {
    for (const st of states) {
      const h = st.hits[i];
      if (!h || seen.has(h.passage.chunkId)) continue;
      seen.add(h.passage.chunkId);
      hits.push({ ...h, rank: hits.length + 1 });
    }
  }
  return { query: states[0].query, matchExpression: states.map((s) => s.matchExpression).filter(Boolean).join(" ; ") || null, hits, dense: states[0].dense };
}
