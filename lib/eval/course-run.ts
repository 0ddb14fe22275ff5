/**
 * A golden set of one course run through the real question path (lib/rag/pipeline.ts, with the
 * course's own database and the given settings), scored by lib/eval/set-metrics.ts. Nothing is
 * stored as an answer and no trace is written: the run's report keeps what each stage did. Also
 * A/B runs of two configurations and the chunk-size experiment on a scratch copy of the course.
 */
import "server-only";
import { z } from "zod";
import type { CompleteText } from "@/lib/ai/generators";
import type { DbHandle } from "@/lib/db/client";
import { getChunkTexts, getCurrentRevisionFiles } from "@/lib/db/queries/golden";
import { ensureCourse } from "@/lib/db/queries/courses";
import { openTempDb } from "@/lib/db/temp";
import { env } from "@/lib/env";
import { submitUpload } from "@/lib/ingest/upload";
import { processQueuedJobs, type WorkerDeps } from "@/lib/ingest/worker";
import { answerQuestion, type AskSettings, type Generator, type TraceRecord } from "@/lib/rag/pipeline";
import { askDeps } from "@/lib/server/ask";
import { JUDGE_SYSTEM_PROMPT, judgeMessages, parseJudgeReply } from "./judge";
import { diagnose, evalParts, type GoldenQuestion, type MissCause } from "./metrics";
import {
  answerCorrect,
  divergedStage,
  headline,
  hitAtK,
  reciprocalRank,
  setMetrics,
  sufficientEvidence,
  type DivergedStage,
  type Headline,
  type SetMetrics,
  type SetRecord,
  type StageFingerprint,
  type StagePassage,
} from "./set-metrics";

/** A configuration: the pipeline's public settings, each optional (absent = the default). */
export const runConfigSchema = z
  .object({
    k: z.number().int().min(1).max(50),
    minScore: z.number().min(0).max(1),
    maxPassages: z.number().int().min(1).max(30),
    contextWindow: z.number().int().min(512).max(200_000),
    outputReserve: z.number().int().min(0).max(32_000),
    safetyMargin: z.number().int().min(0).max(8_000),
  })
  .partial()
  .strict();
export type RunConfig = z.infer<typeof runConfigSchema>;

/** One question's row in a report: its outcome, its retrieval figures, where it was lost, what each stage kept. */
export interface QuestionRow {
  id: string;
  kind: GoldenQuestion["kind"];
  question: string;
  history: string[];
  expect: GoldenQuestion["expect"];
  status: string;
  /** null for questions without gold passages. */
  hit: number | null;
  rr: number | null;
  sufficient: number | null;
  correct: boolean | null;
  topScore: number | null;
  cause: MissCause | null;
  claims: string[];
  stages: StageFingerprint;
  totalMs: number;
}

export interface SetRunReport {
  settings: AskSettings;
  generator: string;
  metrics: SetMetrics;
  headline: Headline;
  questions: QuestionRow[];
  /** The judge's system prompt and model, when a model judged. */
  judge: { model: string; prompt: string } | null;
  seconds: number;
}

export interface RunSetOptions {
  courseId: string;
  questions: GoldenQuestion[];
  config: RunConfig;
  generator?: Generator;
  judge?: { name: string; complete: CompleteText } | null;
  /** Called after each question (done of total). */
  onProgress?: (done: number) => Promise<void> | void;
}

/** Passage texts by chunk id, fetched once per run. */
function passageCache(handle: DbHandle, courseId: string) {
  const known = new Map<string, StagePassage>();
  return {
    async load(ids: string[]) {
      const missing = [...new Set(ids)].filter((id) => !known.has(id));
      for (const row of await getChunkTexts(handle.db, { courseId, chunkIds: missing })) known.set(row.chunkId, row);
    },
    get: (id: string) => known.get(id),
  };
}

function fingerprint(trace: TraceRecord, claims: string[]): StageFingerprint {
  return {
    standalone: trace.standaloneQuery,
    retrieved: trace.retrieval?.hits.map((h) => h.chunkId) ?? [],
    passed: trace.gate?.passed ?? [],
    sent: trace.packing?.selected.map((s) => s.chunkId) ?? [],
    claims,
    status: trace.status ?? "unknown",
  };
}

/** Runs every question of a set, one after another, and scores them. */
export async function runGoldenSet(handle: DbHandle, { courseId, questions, config, generator, judge, onProgress }: RunSetOptions): Promise<SetRunReport> {
  const deps = askDeps(handle, courseId, config, generator);
  const cache = passageCache(handle, courseId);
  const started = performance.now();
  const records: SetRecord[] = [];
  const rows: QuestionRow[] = [];
  for (const [i, golden] of questions.entries()) {
    const run = answerQuestion({ courseId, question: golden.question, history: golden.history ?? [] }, deps);
    let step = await run.next();
    while (!step.done) step = await run.next();
    const { answer, trace } = step.value;
    const hits = trace.retrieval?.hits ?? [];
    const cited = answer.parts.flatMap((p) => p.claims.flatMap((c) => c.citations.map((cit) => cit.chunkId)));
    await cache.load([...hits.map((h) => h.chunkId), ...cited]);
    const stage = (id: string) => cache.get(id);
    const retrieved = hits.map((h) => stage(h.chunkId)).filter((p): p is StagePassage => !!p);
    const sent = (trace.packing?.selected ?? []).map((s) => stage(s.chunkId)).filter((p): p is StagePassage => !!p);
    const scores = trace.gate?.scores.map((s) => s.score) ?? [];
    const record: SetRecord = {
      golden,
      status: answer.status,
      parts: evalParts(answer.parts, (cit) => {
        const source = stage(cit.chunkId);
        return { source: source ? { documentTitle: source.documentTitle, pdfPage: source.pdfPage, text: source.text } : null };
      }),
      k: deps.settings.k,
      retrieved,
      sent,
      topScore: scores.length ? Math.max(...scores) : null,
      timings: Object.fromEntries(Object.entries(trace.timings).filter(([key, v]) => key !== "firstClaimMs" && typeof v === "number")) as Record<string, number>,
    };
    const claims = record.parts.flatMap((p) => p.claims.map((c) => c.text));
    if (judge && claims.length) {
      const reply = await judge.complete(judgeMessages(record)).catch(() => null);
      const verdict = reply === null ? null : parseJudgeReply(reply, claims.length);
      if (verdict) record.judge = verdict;
    }
    records.push(record);
    const withGold = (golden.expect === "answered" || golden.expect === "partial") && !!golden.pages?.length;
    const toPage = (p: StagePassage) => ({ documentTitle: p.documentTitle, pdfPage: p.pdfPage });
    const passed = new Set(trace.gate?.passed ?? []);
    rows.push({
      id: golden.id,
      kind: golden.kind,
      question: golden.question,
      history: golden.history ?? [],
      expect: golden.expect,
      status: answer.status,
      hit: withGold ? hitAtK(record) : null,
      rr: withGold ? reciprocalRank(record) : null,
      sufficient: withGold ? sufficientEvidence(record) : null,
      correct: withGold ? answerCorrect(record) : null,
      topScore: record.topScore,
      cause: diagnose(record, { retrieved: retrieved.map(toPage), passed: retrieved.filter((p) => passed.has(p.chunkId)).map(toPage), sent: sent.map(toPage) }),
      claims,
      stages: fingerprint(trace, claims),
      totalMs: trace.timings.totalMs ?? 0,
    });
    await onProgress?.(i + 1);
    // Let the server's other requests through between questions.
    await new Promise((r) => setImmediate(r));
  }
  const metrics = setMetrics(records);
  return {
    settings: deps.settings,
    generator: deps.generator.name,
    metrics,
    headline: headline(metrics),
    questions: rows,
    judge: judge ? { model: judge.name, prompt: JUDGE_SYSTEM_PROMPT } : null,
    seconds: (performance.now() - started) / 1000,
  };
}

// ─── A/B ────────────────────────────────────────────────────────────────────────────────────

export interface QuestionDiff {
  id: string;
  question: string;
  a: { status: string; correct: boolean | null };
  b: { status: string; correct: boolean | null };
  /** The outcome (status, or correctness) differs. */
  changed: boolean;
  /** Where the two runs parted, for every question whose outcome changed (null: no stage differed). */
  stage: DivergedStage | null;
}

/** Per question, the two runs' outcomes and, where they differ, the first stage that differed. */
export function compareReports(a: SetRunReport, b: SetRunReport): QuestionDiff[] {
  const byId = new Map(b.questions.map((q) => [q.id, q]));
  return a.questions.flatMap((qa) => {
    const qb = byId.get(qa.id);
    if (!qb) return [];
    const changed = qa.status !== qb.status || qa.correct !== qb.correct;
    return [{ id: qa.id, question: qa.question, a: { status: qa.status, correct: qa.correct }, b: { status: qb.status, correct: qb.correct }, changed, stage: changed ? divergedStage(qa.stages, qb.stages) : null }];
  });
}

// ─── The chunk-size experiment ──────────────────────────────────────────────────────────────

export interface ChunkSizeResult {
  targetTokens: number;
  overlapTokens: number;
  chunks: number;
  headline: Headline;
  seconds: number;
}

/** Overlap as the default's share of the target (32 of 160). */
const overlapFor = (targetTokens: number) => Math.round(targetTokens / 5);

/**
 * Re-indexes the course's current documents into a scratch database, once per chunk size, and
 * runs the set there: the live course is only read. Each scratch copy is deleted after its run.
 */
export async function chunkSizeExperiment(
  handle: DbHandle,
  { courseId, courseTitle, sizes, questions, config, worker, generator, onProgress }: Omit<RunSetOptions, "judge"> & { courseTitle: string; sizes: number[]; worker: WorkerDeps },
): Promise<ChunkSizeResult[]> {
  const files = await getCurrentRevisionFiles(handle.db, { courseId });
  const results: ChunkSizeResult[] = [];
  for (const [i, targetTokens] of sizes.entries()) {
    const started = performance.now();
    const scratch = await openTempDb();
    try {
      const course = await ensureCourse(scratch.db, { slug: "scratch", title: courseTitle });
      for (const f of files) {
        await submitUpload(scratch.db, { courseId: course.id, fileName: f.fileName, title: f.title, bytes: new Uint8Array(f.bytes), isCorrection: f.isCorrection, maxBytes: env.MAX_UPLOAD_BYTES });
      }
      const chunkSettings = { targetTokens, overlapTokens: overlapFor(targetTokens) };
      await processQueuedJobs(scratch, { ...worker, chunkSettings });
      const chunks = await scratch.client.execute({ sql: "select count(*) as n from chunks where course_id = ?", args: [course.id] });
      const report = await runGoldenSet(scratch, {
        courseId: course.id,
        questions,
        config,
        generator,
        onProgress: (done) => onProgress?.(i * questions.length + done),
      });
      results.push({ ...chunkSettings, chunks: Number(chunks.rows[0].n), headline: report.headline, seconds: (performance.now() - started) / 1000 });
    } finally {
      scratch.dispose();
    }
  }
  return results;
}
