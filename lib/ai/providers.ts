import "server-only";
import { createOpenAI } from "@ai-sdk/openai";
import { embedMany } from "ai";
import { env } from "@/lib/env";
import { VECTOR_DIMS, type Embedder } from "./vectors";

export class EmbeddingError extends Error {
  override readonly name = "EmbeddingError";
}

function provider(baseURL: string | undefined, apiKey: string | undefined) {
  // Ollama, vLLM and LM Studio accept any key; the SDK insists on one being present.
  return createOpenAI({ baseURL, apiKey: apiKey ?? "not-needed" });
}

/** The configured embedding model, or null: without one retrieval is BM25 alone and nothing is embedded. */
export function createEmbedder(
  config: { model?: string; baseURL?: string; apiKey?: string } = { model: env.EMBEDDING_MODEL, baseURL: env.OPENAI_BASE_URL, apiKey: env.OPENAI_API_KEY },
): Embedder | null {
  if (!config.model) return null;
  const modelId = config.model;
  const model = provider(config.baseURL, config.apiKey).embedding(modelId);
  // text-embedding-3 models can shorten their output to the stored width; others are padded.
  const dimensions = /^text-embedding-3/.test(modelId) ? VECTOR_DIMS : undefined;
  return {
    model: modelId,
    async embed(texts) {
      let embeddings: number[][];
      try {
        ({ embeddings } = await embedMany({ model, values: texts, maxRetries: 2, ...(dimensions ? { providerOptions: { openai: { dimensions } } } : {}) }));
      } catch (e) {
        throw new EmbeddingError(`The embedding endpoint failed: ${(e as Error).message}`);
      }
      for (const v of embeddings) {
        if (v.length > VECTOR_DIMS) throw new EmbeddingError(`${modelId} returns ${v.length} dimensions; at most ${VECTOR_DIMS} are supported.`);
      }
      return embeddings;
    },
  };
}
