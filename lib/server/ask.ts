import "server-only";
import type { DbHandle } from "@/lib/db/client";
import { saveTrace } from "@/lib/db/queries/answers";
import { searchDense, searchLexical } from "@/lib/db/queries/search";
import { createEmbedder, toStoredVector } from "@/lib/ai/providers";
import { generatorFromEnv } from "@/lib/ai/generators";
import { countTokens } from "@/lib/ai/tokenizer";
import { env } from "@/lib/env";
import { newId } from "@/lib/ids";
import { answerQuestion, defaultModel, type AskDeps, type AskInput, type AskResult, type AskSettings, type Generator, type PipelineEvent, type RetrievePorts } from "@/lib/rag/pipeline";

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

/** Runs the pipeline, forwarding its events, and stores the trace. */
export async function* askAndTrace(handle: DbHandle, input: AskInput, deps: AskDeps): AsyncGenerator<PipelineEvent, AskResult> {
  const result = yield* answerQuestion(input, deps);
  // An answer (or a retrieval_error about a database that is down) still reaches the student when its trace cannot be written.
  await saveTrace(handle.db, { trace: result.trace }).catch((e) => console.error(`[ask] trace ${result.trace.id} not stored:`, (e as Error).message));
  yield { type: "done", traceId: result.trace.id };
  return result;
}

/** The whole answer at once (the CLI and tests). */
export async function ask(handle: DbHandle, input: AskInput, deps: AskDeps): Promise<AskResult> {
  const run = askAndTrace(handle, input, deps);
  for (;;) {
    const step = await run.next();
    if (step.done) return step.value;
  }
}
