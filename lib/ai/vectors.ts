/**
 * Stored embeddings, apart from the provider that computes them (providers.ts): ingestion and
 * search write and read vectors without loading the AI SDK.
 */

/** Width of the stored vectors (drizzle/0001_search_index.sql): shorter embeddings are zero-padded. */
export const VECTOR_DIMS = 1024;

export interface Embedder {
  model: string;
  embed(texts: string[]): Promise<number[][]>;
}

/** Zero-pads to the stored width; cosine distance is unchanged by padding. */
export function toStoredVector(v: number[]): string {
  const padded = new Array<number>(VECTOR_DIMS).fill(0);
  for (let i = 0; i < v.length; i++) padded[i] = v[i];
  return JSON.stringify(padded);
}
