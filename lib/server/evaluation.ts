import "server-only";
import { z } from "zod";
import { textModelFromEnv } from "@/lib/ai/generators";
import { requireCourseAccess } from "@/lib/auth/access";
import { MAX_QUESTION_CHARS } from "@/lib/chat/protocol";
import { getDb, type DbHandle } from "@/lib/db/client";
import { getCurrentPassages } from "@/lib/db/queries/search";
import {
  addGoldenQuestions,
  createEvalRun,
  createGoldenSet,
  failEvalRun,
  findGoldenSet,
  finishEvalRun,
  getCourseMinScore,
  listEvalRuns,
  listGoldenQuestions,
  nextQuestionKey,
  requireGoldenSet,
  setEvalRunProgress,
} from "@/lib/db/queries/golden";
import type { Course, EvalRun, GoldenSet } from "@/lib/db/schema";
import { DEMO_GOLDEN_SET, demoGoldenQuestions } from "@/lib/demo/golden";
import { AppError } from "@/lib/errors";
import { chunkSizeExperiment, compareReports, runGoldenSet, type ChunkSizeResult, type QuestionDiff, type RunConfig, type SetRunReport } from "@/lib/eval/course-run";
import { expectations, goldenQuestionSchema, kinds, type GoldenQuestion } from "@/lib/eval/metrics";
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

// ─── The routes' shared steps ───────────────────────────────────────────────────────────────

/** The course (instructors only) and one of its golden sets, for a route under golden-sets/[setId]. */
export async function instructorSet(req: Request, params: Promise<{ courseId: string; setId: string }>) {
  const { courseId, setId } = await params;
  const handle = await getDb();
  const access = await requireCourseAccess(handle.db, req, courseId, "instructor");
  const set = await requireGoldenSet(handle.db, { courseId: access.course.id, setId });
  return { handle, ...access, set };
}

export const goldenSetNameSchema = z
  .string()
  .trim()
  .min(1, "Name the set.")
  .max(60, "Set names are limited to 60 characters.")
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._-]*$/u, "A set name is letters, digits, spaces, dots, dashes and underscores, starting with a letter or digit.");

/** What the set editor sends for a new question: gold passages as picked chunk ids of the course's current notes. */
export const newGoldenQuestionSchema = z.object({
  question: z.string().trim().min(1, "Write the question.").max(MAX_QUESTION_CHARS, `Questions are limited to ${MAX_QUESTION_CHARS} characters.`),
  history: z.array(z.string().trim().min(1).max(MAX_QUESTION_CHARS)).max(20).default([]),
  kind: z.enum(kinds),
  expect: z.enum(expectations),
  answer: z.string().trim().max(500).optional(),
  chunkIds: z.array(z.string().min(1).max(100)).max(12).default([]),
  offTopic: z.boolean().optional(),
});

/**
 * A question for the set from the editor: its picked passages become gold passages (document,
 * page, text and offsets), and the whole is checked as the lib/eval format checks it.
 */
export async function goldenQuestionFromPicks(handle: DbHandle, { courseId, courseSlug, setId, input }: { courseId: string; courseSlug: string; setId: string; input: z.infer<typeof newGoldenQuestionSchema> }): Promise<GoldenQuestion> {
  const picked = [...new Set(input.chunkIds)];
  const passages = await getCurrentPassages(handle.client, { courseId, chunkIds: picked });
  if (passages.length !== picked.length) throw new AppError("bad_request:golden_set", "A picked passage is no longer in the course's current notes. Search again and pick it anew.");
  const candidate = {
    id: await nextQuestionKey(handle.db, { setId }),
    course: courseSlug,
    question: input.question,
    ...(input.history.length ? { history: input.history } : {}),
    expect: input.expect,
    ...(passages.length ? { pages: passages.map((p) => ({ document: p.documentTitle, pdfPage: p.pdfPage, quote: p.text, charStart: p.charStart, charEnd: p.charStart + p.text.length })) } : {}),
    ...(input.answer ? { answer: input.answer } : {}),
    kind: input.kind,
    split: "test" as const,
    ...(input.offTopic ? { offTopic: true } : {}),
  };
  const parsed = goldenQuestionSchema.safeParse(candidate);
  if (!parsed.success) throw new AppError("bad_request:golden_set", parsed.error.issues.map((i) => i.message).join("; "));
  return parsed.data;
}

/** A run started less than this long ago and still running blocks another on the course (a run cut off by a restart stays "running"). */
const RUN_LOCK_MS = 30 * 60_000;

export async function assertNoRunningRun(db: DbHandle["db"], courseId: string): Promise<void> {
  const recent = await listEvalRuns(db, { courseId, limit: 5 });
  if (recent.some((r) => r.status === "running" && Date.now() - r.createdAt.getTime() < RUN_LOCK_MS)) {
    throw new AppError("conflict:eval_run", "An evaluation of this course is still running. Wait for it to finish.");
  }
}
