import "server-only";
import { textModelFromEnv } from "@/lib/ai/generators";
import type { DbHandle } from "@/lib/db/client";
import {
  addGoldenQuestions,
  createEvalRun,
  createGoldenSet,
  failEvalRun,
  findGoldenSet,
  finishEvalRun,
  getCourseMinScore,
  listGoldenQuestions,
  setEvalRunProgress,
} from "@/lib/db/queries/golden";
import type { Course, EvalRun, GoldenSet } from "@/lib/db/schema";
import { DEMO_GOLDEN_SET, demoGoldenQuestions } from "@/lib/demo/golden";
import { AppError } from "@/lib/errors";
import { chunkSizeExperiment, compareReports, runGoldenSet, type ChunkSizeResult, type QuestionDiff, type RunConfig, type SetRunReport } from "@/lib/eval/course-run";
import type { Headline } from "@/lib/eval/set-metrics";
import { workerDepsFromEnv } from "@/lib/ingest/deps";
import type { AskSettings, Generator } from "@/lib/rag/pipeline";
import { defaultAskSettings } from "./ask";

/** What a run's report holds, by kind; `headlines` (one per configuration or chunk size) feeds the chart over time. */
export type EvalReport =
  | { kind: "single"; headlines: [Headline]; runs: [SetRunReport] }
  | { kind: "ab"; headlines: [Headline, Headline]; runs: [SetRunReport, SetRunReport]; diffs: QuestionDiff[] }
  | { kind: "chunk_sizes"; headlines: Headline[]; sizes: ChunkSizeResult[] };

/** The course's own settings over the defaults: the floor an instructor set from the score chart. */
export async function courseAskOverrides(db: DbHandle["db"], courseId: string): Promise<Partial<AskSettings>> {
  const minScore = await getCourseMinScore(db, { courseId });
  return minScore === null ? {} : { minScore };
}

/** The configuration a run uses when given none: every setting, as the course's answers use it. */
export async function defaultRunConfig(db: DbHandle["db"], courseId: string): Promise<Required<RunConfig>> {
  const { k, minScore, maxPassages, contextWindow, outputReserve, safetyMargin } = { ...defaultAskSettings, ...(await courseAskOverrides(db, courseId)) };
  return { k, minScore, maxPassages, contextWindow, outputReserve, safetyMargin };
}

/** The demo course's `demo` golden set, created once (the seed, and the CLI on a database seeded before sets existed). */
export async function ensureDemoGoldenSet(db: DbHandle["db"], courseId: string): Promise<GoldenSet> {
  const existing = await findGoldenSet(db, { courseId, name: DEMO_GOLDEN_SET });
  if (existing) return existing;
  const set = await createGoldenSet(db, { courseId, name: DEMO_GOLDEN_SET });
  await addGoldenQuestions(db, { setId: set.id, questions: demoGoldenQuestions });
  return set;
}

export const CHUNK_SIZES = [80, 160, 320] as const;

export type RunRequest =
  | { kind: "single"; config: RunConfig }
  | { kind: "ab"; config: RunConfig; vs: RunConfig }
  | { kind: "chunk_sizes"; config: RunConfig; sizes: number[] };

/**
 * Starts an evaluation of a set: the run's row at once (status running, progress 0), then the
 * questions; `wait: false` (the web app) returns while it runs, the CLI waits. A failure is stored
 * on the run with its message.
 */
export async function startEvalRun(
  handle: DbHandle,
  { course, set, request, wait, generator }: { course: Course; set: GoldenSet; request: RunRequest; wait: boolean; generator?: Generator },
): Promise<{ run: EvalRun; done: Promise<EvalReport | null> }> {
  const questions = (await listGoldenQuestions(handle.db, { setId: set.id, course: course.slug })).map((q) => q.golden);
  if (questions.length === 0) throw new AppError("bad_request:golden_set", `The golden set “${set.name}” has no questions yet. Add some first.`);
  const defaults = await defaultRunConfig(handle.db, course.id);
  const configs = request.kind === "ab" ? [{ ...defaults, ...request.config }, { ...defaults, ...request.vs }] : [{ ...defaults, ...request.config }];
  const rounds = request.kind === "ab" ? 2 : request.kind === "chunk_sizes" ? request.sizes.length : 1;
  const run = await createEvalRun(handle.db, {
    courseId: course.id,
    setId: set.id,
    setName: set.name,
    kind: request.kind,
    configs: request.kind === "chunk_sizes" ? { config: configs[0], sizes: request.sizes } : configs,
    total: rounds * questions.length,
  });
  const judge = textModelFromEnv();
  const progress = (offset: number) => (done: number) => setEvalRunProgress(handle.db, { runId: run.id, progress: offset + done });
  const execute = async (): Promise<EvalReport> => {
    const one = (config: RunConfig, offset: number) => runGoldenSet(handle, { courseId: course.id, questions, config, generator, judge, onProgress: progress(offset) });
    if (request.kind === "single") {
      const a = await one(configs[0], 0);
      return { kind: "single", headlines: [a.headline], runs: [a] };
    }
    if (request.kind === "ab") {
      const a = await one(configs[0], 0);
      const b = await one(configs[1], questions.length);
      return { kind: "ab", headlines: [a.headline, b.headline], runs: [a, b], diffs: compareReports(a, b) };
    }
    const sizes = await chunkSizeExperiment(handle, {
      courseId: course.id,
      courseTitle: course.title,
      sizes: request.sizes,
      questions,
      config: configs[0],
      generator,
      worker: workerDepsFromEnv(),
      onProgress: progress(0),
    });
    return { kind: "chunk_sizes", headlines: sizes.map((s) => s.headline), sizes };
  };
  const done = execute().then(
    async (report) => {
      await finishEvalRun(handle.db, { runId: run.id, report });
      return report;
    },
    async (e) => {
      console.error(`[eval] run ${run.id} failed:`, e);
      await failEvalRun(handle.db, { runId: run.id, error: "The run failed: " + ((e as Error).message || "unknown error") }).catch(() => {});
      return null;
    },
  );
  if (wait) await done;
  return { run, done };
}
