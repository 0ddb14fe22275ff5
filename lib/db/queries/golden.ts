import "server-only";
import { and, asc, count, desc, eq, inArray, isNull, max, sql } from "drizzle-orm";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import type { GoldenQuestion } from "@/lib/eval/metrics";
import type { Db } from "../client";
import { chunks, courseSettings, documents, evalRuns, goldenQuestions, goldenSets, probeRuns, revisionFiles, revisions, type EvalRun, type GoldenSet } from "../schema";

// ─── Golden sets ────────────────────────────────────────────────────────────────────────────

export interface GoldenSetSummary extends GoldenSet {
  questions: number;
}

export async function listGoldenSets(db: Db, { courseId }: { courseId: string }): Promise<GoldenSetSummary[]> {
  const rows = await db
    .select({ set: goldenSets, questions: count(goldenQuestions.id) })
    .from(goldenSets)
    .leftJoin(goldenQuestions, eq(goldenQuestions.setId, goldenSets.id))
    .where(eq(goldenSets.courseId, courseId))
    .groupBy(goldenSets.id)
    .orderBy(asc(goldenSets.name));
  return rows.map((r) => ({ ...r.set, questions: r.questions }));
}

/** A set of the course, by id or by name; a set of another course is not found. */
export async function findGoldenSet(db: Db, { courseId, setId, name }: { courseId: string; setId?: string; name?: string }): Promise<GoldenSet | undefined> {
  const which = setId ? eq(goldenSets.id, setId) : eq(goldenSets.name, name ?? "");
  return db.query.goldenSets.findFirst({ where: and(eq(goldenSets.courseId, courseId), which) });
}

export async function requireGoldenSet(db: Db, where: { courseId: string; setId?: string; name?: string }): Promise<GoldenSet> {
  const set = await findGoldenSet(db, where);
  if (!set) throw new AppError("not_found:golden_set", where.name ? `The course has no golden set named “${where.name}”.` : "The golden set was not found.");
  return set;
}

export async function createGoldenSet(db: Db, { courseId, name }: { courseId: string; name: string }): Promise<GoldenSet> {
  if (await findGoldenSet(db, { courseId, name })) throw new AppError("conflict:golden_set", `The course already has a golden set named “${name}”.`);
  const [set] = await db.insert(goldenSets).values({ id: newId("gld"), courseId, name }).returning();
  return set;
}

export async function deleteGoldenSet(db: Db, { setId }: { setId: string }): Promise<void> {
  await db.delete(goldenSets).where(eq(goldenSets.id, setId));
}

export interface StoredGoldenQuestion {
  /** The row id (for deleting); `golden.id` is the question's key in the JSONL format. */
  rowId: string;
  golden: GoldenQuestion;
}

/** The set's questions in order, in the lib/eval format (`course` is the course's slug). */
export async function listGoldenQuestions(db: Db, { setId, course }: { setId: string; course: string }): Promise<StoredGoldenQuestion[]> {
  const rows = await db.select().from(goldenQuestions).where(eq(goldenQuestions.setId, setId)).orderBy(asc(goldenQuestions.ordinal));
  return rows.map((r) => ({
    rowId: r.id,
    golden: {
      id: r.key,
      course,
      question: r.question,
      ...(r.history.length ? { history: r.history } : {}),
      expect: r.expect,
      ...(r.passages.length ? { pages: r.passages } : {}),
      ...(r.answer ? { answer: r.answer } : {}),
      kind: r.kind,
      split: r.split,
      ...(r.offTopic ? { offTopic: true } : {}),
      ...(r.note ? { note: r.note } : {}),
    },
  }));
}

/**
 * Appends questions to a set in one transaction: all of them or, when a key is taken (in the set
 * or twice in the batch), none, with the key named.
 */
export async function addGoldenQuestions(db: Db, { setId, questions }: { setId: string; questions: GoldenQuestion[] }): Promise<void> {
  if (questions.length === 0) return;
  const keys = questions.map((q) => q.id);
  const twice = keys.find((k, i) => keys.indexOf(k) !== i);
  if (twice) throw new AppError("conflict:golden_set", `The question id “${twice}” appears twice.`);
  await db.transaction(async (tx) => {
    const taken = await tx.select({ key: goldenQuestions.key }).from(goldenQuestions).where(and(eq(goldenQuestions.setId, setId), inArray(goldenQuestions.key, keys))).limit(1);
    if (taken.length) throw new AppError("conflict:golden_set", `The set already has a question with the id “${taken[0].key}”.`);
    const [{ last }] = await tx.select({ last: max(goldenQuestions.ordinal) }).from(goldenQuestions).where(eq(goldenQuestions.setId, setId));
    const first = (last ?? -1) + 1;
    await tx.insert(goldenQuestions).values(
      questions.map((q, i) => ({
        id: newId("gq"),
        setId,
        key: q.id,
        ordinal: first + i,
        kind: q.kind,
        expect: q.expect,
        question: q.question,
        history: q.history ?? [],
        answer: q.answer ?? null,
        passages: q.pages ?? [],
        split: q.split,
        offTopic: q.offTopic ?? false,
        note: q.note ?? null,
      })),
    );
  });
}

/** The next free key of the form `q-N` in a set, for a question added in the browser. */
export async function nextQuestionKey(db: Db, { setId }: { setId: string }): Promise<string> {
  const [{ n }] = await db.select({ n: count() }).from(goldenQuestions).where(eq(goldenQuestions.setId, setId));
  for (let i = n + 1; ; i++) {
    const key = `q-${i}`;
    if (!(await db.query.goldenQuestions.findFirst({ where: and(eq(goldenQuestions.setId, setId), eq(goldenQuestions.key, key)) }))) return key;
  }
}

export async function deleteGoldenQuestion(db: Db, { setId, questionId }: { setId: string; questionId: string }): Promise<boolean> {
  const gone = await db.delete(goldenQuestions).where(and(eq(goldenQuestions.setId, setId), eq(goldenQuestions.id, questionId))).returning({ id: goldenQuestions.id });
  return gone.length > 0;
}

// ─── Evaluation runs ────────────────────────────────────────────────────────────────────────

export async function createEvalRun(
  db: Db,
  run: { courseId: string; setId: string; setName: string; kind: EvalRun["kind"]; configs: unknown; total: number },
): Promise<EvalRun> {
  const [row] = await db.insert(evalRuns).values({ id: newId("evr"), ...run }).returning();
  return row;
}

export async function setEvalRunProgress(db: Db, { runId, progress }: { runId: string; progress: number }): Promise<void> {
  await db.update(evalRuns).set({ progress }).where(eq(evalRuns.id, runId));
}

export async function finishEvalRun(db: Db, { runId, report }: { runId: string; report: unknown }): Promise<void> {
  await db.update(evalRuns).set({ status: "done", report, progress: sql`${evalRuns.total}`, finishedAt: new Date() }).where(eq(evalRuns.id, runId));
}

export async function failEvalRun(db: Db, { runId, error }: { runId: string; error: string }): Promise<void> {
  await db.update(evalRuns).set({ status: "failed", error, finishedAt: new Date() }).where(eq(evalRuns.id, runId));
}

export async function getEvalRun(db: Db, { courseId, runId }: { courseId: string; runId: string }): Promise<EvalRun | undefined> {
  return db.query.evalRuns.findFirst({ where: and(eq(evalRuns.courseId, courseId), eq(evalRuns.id, runId)) });
}

/** The course's runs, newest first, without their reports' per-question rows. */
export async function listEvalRuns(db: Db, { courseId, limit }: { courseId: string; limit: number }) {
  return db
    .select({
      id: evalRuns.id,
      setName: evalRuns.setName,
      kind: evalRuns.kind,
      status: evalRuns.status,
      progress: evalRuns.progress,
      total: evalRuns.total,
      configs: evalRuns.configs,
      error: evalRuns.error,
      createdAt: evalRuns.createdAt,
      finishedAt: evalRuns.finishedAt,
      headlines: sql<string | null>`json_extract(${evalRuns.report}, '$.headlines')`,
    })
    .from(evalRuns)
    .where(eq(evalRuns.courseId, courseId))
    .orderBy(desc(evalRuns.createdAt))
    .limit(limit);
}

// ─── Passages looked up by id (a run's hits and citations) ──────────────────────────────────

/** Chunk text and place by id, any revision: a citation of an old revision still resolves. */
export async function getChunkTexts(db: Db, { courseId, chunkIds }: { courseId: string; chunkIds: string[] }) {
  if (chunkIds.length === 0) return [];
  return db
    .select({ chunkId: chunks.id, documentTitle: documents.title, pdfPage: chunks.pdfPage, text: chunks.text, charStart: chunks.charStart })
    .from(chunks)
    .innerJoin(documents, eq(documents.id, chunks.documentId))
    .where(and(eq(chunks.courseId, courseId), inArray(chunks.id, chunkIds)));
}

/** The current revision of each live document of a course, with its bytes, in upload order: what a scratch copy re-indexes. */
export async function getCurrentRevisionFiles(db: Db, { courseId }: { courseId: string }) {
  return db
    .select({ title: documents.title, fileName: revisions.fileName, isCorrection: revisions.isCorrection, bytes: revisionFiles.bytes })
    .from(documents)
    .innerJoin(revisions, eq(revisions.id, documents.currentRevisionId))
    .innerJoin(revisionFiles, eq(revisionFiles.revisionId, revisions.id))
    .where(and(eq(documents.courseId, courseId), isNull(documents.deletedAt)))
    .orderBy(asc(revisions.uploadedAt));
}

// ─── Probe runs ─────────────────────────────────────────────────────────────────────────────

export async function saveProbeRun(db: Db, run: { courseId: string; question: string; verdict: string; summary: string; conditions: unknown }): Promise<string> {
  const id = newId("prb");
  await db.insert(probeRuns).values({ id, ...run });
  return id;
}

export async function listProbeRuns(db: Db, { courseId, limit }: { courseId: string; limit: number }) {
  return db
    .select({ id: probeRuns.id, question: probeRuns.question, verdict: probeRuns.verdict, summary: probeRuns.summary, createdAt: probeRuns.createdAt })
    .from(probeRuns)
    .where(eq(probeRuns.courseId, courseId))
    .orderBy(desc(probeRuns.createdAt))
    .limit(limit);
}

export async function getProbeRun(db: Db, { courseId, probeId }: { courseId: string; probeId: string }) {
  return db.query.probeRuns.findFirst({ where: and(eq(probeRuns.courseId, courseId), eq(probeRuns.id, probeId)) });
}

// ─── Course settings ────────────────────────────────────────────────────────────────────────

export async function getCourseMinScore(db: Db, { courseId }: { courseId: string }): Promise<number | null> {
  const row = await db.query.courseSettings.findFirst({ where: eq(courseSettings.courseId, courseId) });
  return row?.minScore ?? null;
}

export async function setCourseMinScore(db: Db, { courseId, minScore }: { courseId: string; minScore: number }): Promise<void> {
  await db
    .insert(courseSettings)
    .values({ courseId, minScore })
    .onConflictDoUpdate({ target: courseSettings.courseId, set: { minScore, updatedAt: new Date() } });
}
