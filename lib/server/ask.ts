import "server-only";
import type { DbHandle } from "@/lib/db/client";
import { saveTrace } from "@/lib/db/queries/answers";
import { courseScopes, searchDense, searchLexical, searchRows } from "@/lib/db/queries/search";
import { createEmbedder } from "@/lib/ai/providers";
import { toStoredVector } from "@/lib/ai/vectors";
import { generatorFromEnv } from "@/lib/ai/generators";
import { countTokens } from "@/lib/ai/tokenizer";
import { env } from "@/lib/env";
import { newId } from "@/lib/ids";
import { answerQuestion, defaultModel, type AskDeps, type AskInput, type AskResult, type AskSettings, type Generator, type RetrievePorts, type TraceRecord } from "@/lib/rag/pipeline";

/** Defaults (README "Calibration"); the answer floor is the one fitted with the ranker's weights. */
export const defaultAskSettings: AskSettings = {
  k: 8,
  minScore: env.ASK_MIN_SCORE ?? defaultModel.floor,
  contextWindow: env.GENERATION_CONTEXT_WINDOW,
  outputReserve: 1024,
  safetyMargin: 256,
  maxPassages: 6,
};

/** Retrieval reads the course's current revisions from the database (and vectors, when configured). */
export function databasePorts({ client }: DbHandle, courseId: string): RetrievePorts {
  const embedder = createEmbedder();
  return {
    lexical: (terms, limit) => searchLexical(client, { courseId, terms, limit }),
    scopes: () => courseScopes(client, { courseId }),
    rows: (noun, id, limit) => searchRows(client, { courseId, noun, id, limit }),
    ...(embedder
      ? {
          dense: async (query: string, limit: number) => {
            const [vector] = await embedder.embed([query]);
            return searchDense(client, { courseId, vector: toStoredVector(vector), limit });
          },
        }
      : {}),
  };
}

export function askDeps(handle: DbHandle, courseId: string, overrides: Partial<AskSettings> = {}, generator: Generator = generatorFromEnv()): AskDeps {
  return {
    retrievePorts: databasePorts(handle, courseId),
    generator,
    countTokens,
    settings: { ...defaultAskSettings, ...overrides },
    newTraceId: () => newId("trc"),
  };
}

/**
 * The whole answer at once, its trace stored (the CLI, the instructor's workbench and tests; the
 * chat route stores its answers with saveAnswer). `origin` marks a workbench run's trace.
 */
export async function ask(handle: DbHandle, input: AskInput, deps: AskDeps, { origin }: Pick<TraceRecord, "origin"> = {}): Promise<AskResult> {
  const run = answerQuestion(input, deps);
  let step = await run.next();
  while (!step.done) step = await run.next();
  if (origin) step.value.trace.origin = origin;
  // The answer still reaches the caller when its trace cannot be written (a database that is down).
  await saveTrace(handle.db, { trace: step.value.trace }).catch((e) => console.error(`[ask] trace ${step.value.trace.id} not stored:`, (e as Error).message));
  return step.value;
}
