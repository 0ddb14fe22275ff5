/**
 * Runs the golden set (lib/eval/golden.jsonl) through the real question path: one temporary
 * database holding the demo course and every corpus (and written) PDF as its own course, every question
 * through `ask` (history included), then the metrics of lib/eval/metrics.ts.
 *
 * The database is built once per process and reused (a sweep asks the same questions many
 * times with different settings; ingestion is the slow part).
 */
import "server-only";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { and, eq } from "drizzle-orm";
import { extractiveGenerator, generatorFromEnv } from "@/lib/ai/generators";
import type { DbHandle } from "@/lib/db/client";
import { ensureCourse, getCourseBySlug } from "@/lib/db/queries/courses";
import { documents, pages } from "@/lib/db/schema";
import { demoCourse } from "@/lib/demo/course";
import { openTempDb } from "@/lib/db/temp";
import { env } from "@/lib/env";
import { workerDepsFromEnv } from "@/lib/ingest/deps";
import { ingestFiles } from "@/lib/ingest/ingest-files";
import { processQueuedJobs } from "@/lib/ingest/worker";
import { answerText, type AskDeps, type AskSettings, type ExtractiveModel, type TraceRecord } from "@/lib/rag/pipeline";
import { ask, askDeps, defaultAskSettings } from "@/lib/server/ask";
import { seedDemoCourse } from "@/lib/server/seed";
import { parseGoldenJsonl } from "./jsonl";
import { computeMetrics, diagnose, evalParts, type EvalRecord, type GoldenQuestion, type Metrics, type MissCause, type Split } from "./metrics";

const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url));
/**
 * What the student read before a follow-up, as the chat passes it on: the answer to the last
 * question of its history (asked after the ones before it); undefined when it stated nothing.
 */
export async function previousAnswerOf(handle: DbHandle, { courseId, history }: { courseId: string; history: readonly string[] }, deps: AskDeps): Promise<string | undefined> {
  const last = history.at(-1);
  if (last === undefined) return undefined;
  const { answer } = await ask(handle, { courseId, question: last, history: history.slice(0, -1) }, deps);
  return answer.status === "answered" || answer.status === "partial" ? answerText(answer) : undefined;
}

/** The golden set, next to this file. */
export const GOLDEN_PATH = join(REPO_ROOT, "lib", "eval", "golden.jsonl");
/**
 * Course PDFs written for development by sessions that saw neither the code nor the other sets
 * (HTML sources beside them, printed by chromium); lib/eval/written.jsonl asks about them and
 * about ../shared/corpus. Every evaluation database holds them as courses of their own.
 */
export const WRITTEN_DIR = join(REPO_ROOT, "lib", "eval", "written");
export { CORPUS_DIR } from "@/lib/pdf/corpus";
import { CORPUS_DIR } from "@/lib/pdf/corpus";
/** The golden course name of the demo course (seeded under its own slug). */
export const DEMO_COURSE = "demo";

// ─── The golden set ─────────────────────────────────────────────────────────────────────────

/** Reads and validates golden.jsonl; a malformed line fails with its line number. */
export function loadGolden(path: string = GOLDEN_PATH): GoldenQuestion[] {
  return parseGoldenJsonl(readFileSync(path, "utf8"), basename(path));
}

export function selectSplit(golden: GoldenQuestion[], split: Split | "all"): GoldenQuestion[] {
  return split === "all" ? golden : golden.filter((g) => g.split === split);
}

// ─── The evaluation database ────────────────────────────────────────────────────────────────

export interface EvalDb {
  handle: DbHandle;
  /** Golden course name ("demo" or a corpus file stem) → course id. */
  courses: Map<string, string>;
  /** Seconds spent building the database. */
  buildSeconds: number;
  dispose: () => void;
}

/** The corpus PDFs, or a clear error when the folder is missing or empty. */
export function corpusFiles(dir: string = CORPUS_DIR): string[] {
  if (!existsSync(dir)) {
    throw new Error(`The evaluation corpus is missing: expected the course PDFs in ${dir} (../shared/corpus relative to the repository root).`);
  }
  const files = readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith(".pdf"))
    .sort();
  if (files.length === 0) throw new Error(`The evaluation corpus folder ${dir} holds no PDF files.`);
  return files.map((f) => join(dir, f));
}

let shared: Promise<EvalDb> | null = null;
let sharedDir: string | null = null;

/** The process-wide evaluation database, built on first use from one corpus folder (another folder later is a caller's mistake). */
export function evalDb(corpusDir: string = CORPUS_DIR): Promise<EvalDb> {
  if (shared && sharedDir !== corpusDir) throw new Error(`The evaluation database was built from ${sharedDir}, not ${corpusDir}.`);
  sharedDir = corpusDir;
  shared ??= buildEvalDb({ corpusDir }).catch((e) => {
    shared = null;
    throw e;
  });
  return shared;
}

/** Closes the shared database (a script's last step; tests may simply exit). */
export async function closeEvalDb(): Promise<void> {
  if (!shared) return;
  const db = await shared.catch(() => null);
  shared = null;
  db?.dispose();
}

/** A fresh temporary database: the demo course plus each corpus PDF and each written PDF as its own course (slug = file stem). */
export async function buildEvalDb({ corpusDir = CORPUS_DIR }: { corpusDir?: string } = {}): Promise<EvalDb> {
  const files = corpusFiles(corpusDir);
  const stems = new Set(files.map((f) => basename(f)));
  files.push(...corpusFiles(WRITTEN_DIR).filter((f) => !stems.has(basename(f))));
  const started = performance.now();
  const handle = await openTempDb();
  try {
    const deps = workerDepsFromEnv();
    const courses = new Map<string, string>();

    await seedDemoCourse(handle);
    await processQueuedJobs(handle, deps);
    const demo = await getCourseBySlug(handle.db, { slug: demoCourse.slug });
    if (!demo) throw new Error(`Seeding the demo course did not create “${demoCourse.slug}”.`);
    courses.set(DEMO_COURSE, demo.id);

    for (const file of files) {
      const stem = basename(file).replace(/\.pdf$/i, "");
      const course = await ensureCourse(handle.db, { slug: stem, title: stem });
      const [outcome] = await ingestFiles(handle, deps, {
        courseId: course.id,
        files: [{ name: basename(file), bytes: new Uint8Array(readFileSync(file)) }],
        maxBytes: env.MAX_UPLOAD_BYTES,
      });
      if (outcome.status !== "ready") throw new Error(`Could not index ${basename(file)}: ${outcome.status}${outcome.error ? ` (${outcome.error})` : ""}`);
      courses.set(stem, course.id);
    }
    return { handle, courses, buildSeconds: (performance.now() - started) / 1000, dispose: handle.dispose };
  } catch (e) {
    handle.dispose();
    throw e;
  }
}

/** The stored (normalised) text of one page of a document in a course, or null. */
export async function pageText(db: EvalDb, course: string, documentSubstring: string, pdfPage: number): Promise<string | null> {
  const courseId = db.courses.get(course);
  if (!courseId) return null;
  const docs = await db.handle.db.select().from(documents).where(eq(documents.courseId, courseId));
  const doc = docs.find((d) => d.title.toLowerCase().includes(documentSubstring.toLowerCase()) && d.currentRevisionId);
  if (!doc) return null;
  const [row] = await db.handle.db
    .select({ text: pages.text })
    .from(pages)
    .where(and(eq(pages.revisionId, doc.currentRevisionId!), eq(pages.pdfPage, pdfPage)));
  return row?.text ?? null;
}

// ─── Running questions ──────────────────────────────────────────────────────────────────────

export interface RunOptions {
  split?: Split | "all";
  /** Question-path settings over the defaults (k, minScore, maxPassages, contextWindow…). */
  overrides?: Partial<AskSettings>;
  /** When given, the extractive generator runs with this ranker (whatever the environment configures). */
  model?: ExtractiveModel;
  /** Only these ids (debugging). */
  ids?: string[];
  golden?: GoldenQuestion[];
  /** The folder of course PDFs (each its own course, named by file stem); ../shared/corpus by default. */
  corpusDir?: string;
}

export interface QuestionResult extends EvalRecord {
  standaloneQuery: string;
  /** Pages retrieved / sent to the generator, as "title p.N", for the miss report. */
  retrievedPages: string[];
  sentPages: string[];
  /** For a miss: which stage lost it. */
  cause: MissCause | null;
  ms: number;
}

export interface RunReport {
  split: Split | "all";
  settings: AskSettings;
  generator: string;
  results: QuestionResult[];
  metrics: Metrics;
  seconds: number;
}

const pageKey = (title: string, pdfPage: number) => `${title} p.${pdfPage}`;

function stagePages(trace: TraceRecord) {
  const hits = trace.retrieval?.hits ?? [];
  const byChunk = new Map(hits.map((h) => [h.chunkId, h]));
  const passed = new Set(trace.gate?.passed ?? []);
  const sentIds = new Set((trace.packing?.selected ?? []).map((s) => s.chunkId));
  const toPage = (h: (typeof hits)[number]) => ({ documentTitle: h.documentTitle, pdfPage: h.pdfPage });
  return {
    retrieved: hits.map(toPage),
    passed: hits.filter((h) => passed.has(h.chunkId)).map(toPage),
    sent: [...sentIds].map((id) => byChunk.get(id)).filter((h): h is NonNullable<typeof h> => !!h).map(toPage),
  };
}

/** Runs the golden questions of a split through `ask` and scores them. */
export async function runGolden({ split = "all", overrides = {}, model, ids, golden, corpusDir }: RunOptions = {}): Promise<RunReport> {
  const db = await evalDb(corpusDir);
  const questions = selectSplit(golden ?? loadGolden(), split).filter((g) => !ids || ids.includes(g.id));
  const generator = model ? extractiveGenerator(model) : generatorFromEnv();
  const settings: AskSettings = { ...defaultAskSettings, ...overrides };
  const started = performance.now();
  const results: QuestionResult[] = [];
  for (const g of questions) {
    const courseId = db.courses.get(g.course);
    if (!courseId) throw new Error(`Golden question ${g.id} names course “${g.course}”, which is neither "${DEMO_COURSE}" nor a PDF in ${corpusDir ?? CORPUS_DIR}.`);
    const t0 = performance.now();
    const deps = askDeps(db.handle, courseId, overrides, generator);
    const history = g.history ?? [];
    const { answer, trace } = await ask(db.handle, { courseId, question: g.question, history, previousAnswer: await previousAnswerOf(db.handle, { courseId, history }, deps) }, deps);
    const record: EvalRecord = {
      golden: g,
      status: answer.status,
      parts: evalParts(answer.parts),
    };
    const stages = stagePages(trace);
    results.push({
      ...record,
      standaloneQuery: trace.standaloneQuery,
      retrievedPages: [...new Set(stages.retrieved.map((p) => pageKey(p.documentTitle, p.pdfPage)))],
      sentPages: [...new Set(stages.sent.map((p) => pageKey(p.documentTitle, p.pdfPage)))],
      cause: diagnose(record, stages),
      ms: Math.round(performance.now() - t0),
    });
  }
  return {
    split,
    settings,
    generator: generator.name,
    results,
    metrics: computeMetrics(results),
    seconds: (performance.now() - started) / 1000,
  };
}
