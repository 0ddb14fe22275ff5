/**
 * The entry point ingestion uses into lib/rag: extract → chunk for one PDF, and what the worker
 * stores beside it. Apart from pipeline.ts so that ingesting loads none of the question path's
 * modules (wink-nlp's English model alone is about 40 MB of a process).
 */
import { chunkPage, defaultChunkSettings } from "./chunk";
import { extractPdf, type ReadBudget } from "./extract";
import type { ChunkDraft, ChunkSettings, ChunkState, CountTokens, ExtractState } from "./types";

export { isExtractError, sniffPdf, describePages } from "./extract";
export { documentScope } from "./extractive/scope";
export type { ChunkSettings, CountTokens } from "./types";

export interface IndexableDocument {
  extracted: ExtractState;
  chunked: ChunkState;
}

/** extract → chunk for one PDF. Throws ExtractError for files that cannot be read. */
export async function extractAndChunk(
  bytes: Uint8Array,
  {
    countTokens,
    chunkSettings = defaultChunkSettings,
    onPage,
    readerThreads,
    budget,
  }: { countTokens: CountTokens; chunkSettings?: ChunkSettings; onPage?: (done: number, total: number) => void; readerThreads?: number; budget?: ReadBudget },
): Promise<IndexableDocument> {
  // Each page is chunked as it arrives, while the reader threads go on with the next pages.
  const byPage: ChunkDraft[][] = [];
  const onPageText = (pdfPage: number, text: string) => (byPage[pdfPage - 1] = chunkPage({ pdfPage, text }, countTokens, chunkSettings));
  const extracted = await extractPdf(bytes, { onPage, onPageText, threads: readerThreads, budget });
  return { extracted, chunked: { chunks: byPage.flat(), settings: chunkSettings } };
}
