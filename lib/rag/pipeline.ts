/**
 * The one entry point the app uses into lib/rag: it composes the stages. Ingestion is
 * extract → chunk; the question path is retrieve → gate → pack → ground → generate →
 * validate → decide, with a trace of every step.
 */
import { chunkPages, defaultChunkSettings } from "./chunk";
import { extractPdf } from "./extract";
import type { ChunkSettings, ChunkState, CountTokens, ExtractState } from "./types";

export { ExtractError, isExtractError, sniffPdf, describePages } from "./extract";
export { normalizeText, normalizeInline } from "./normalize";
export { defaultChunkSettings } from "./chunk";
export type * from "./types";

export interface IndexableDocument {
  extracted: ExtractState;
  chunked: ChunkState;
}

/** extract → chunk for one PDF. Throws ExtractError for files that cannot be read. */
export async function extractAndChunk(
  bytes: Uint8Array,
  { countTokens, chunkSettings = defaultChunkSettings, onPage }: { countTokens: CountTokens; chunkSettings?: ChunkSettings; onPage?: (done: number, total: number) => void },
): Promise<IndexableDocument> {
  const extracted = await extractPdf(bytes, onPage);
  const chunked = chunkPages(extracted.pages, countTokens, chunkSettings);
  return { extracted, chunked };
}
