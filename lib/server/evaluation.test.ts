import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractiveGenerator } from "@/lib/ai/generators";
import { countTokens } from "@/lib/ai/tokenizer";
import { ensureCourse } from "@/lib/db/queries/courses";
import { addGoldenQuestions, createGoldenSet, findGoldenSet, getEvalRun, listGoldenQuestions } from "@/lib/db/queries/golden";
import { openTempDb } from "@/lib/db/temp";
import { demoCourse } from "@/lib/demo/course";
import { DEMO_GOLDEN_SET, demoGoldenQuestions } from "@/lib/demo/golden";
import { chunkSizeExperiment, runGoldenSet } from "@/lib/eval/course-run";
import { goldenJsonl, parseGoldenJsonl } from "@/lib/eval/jsonl";
import { goldenQuestionSchema, kinds, normalizeForMatch } from "@/lib/eval/metrics";
import { processQueuedJobs } from "@/lib/ingest/worker";
import type { Course } from "@/lib/db/schema";
import { seedDemoCourse } from "./seed";
import { setCourseMinScore } from "@/lib/db/queries/golden";
import { courseAskOverrides, defaultRunConfig, startEvalRun } from "./evaluation";

type TempDb = Awaited<ReturnType<typeof openTempDb>>;
let db: TempDb;
let course: Course;
const worker = { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 8 };

beforeAll(async () => {
  db = await openTempDb();
  await seedDemoCourse(db);
  await processQueuedJobs(db, worker);
  course = await ensureCourse(db.db, { slug: demoCourse.slug });
});
afterAll(() => db.dispose());

async function pageText(document: string, pdfPage: number): Promise<string | null> {
  const r = await db.client.execute({
    sql: "select p.text from pages p join documents d on d.current_revision_id = p.revision_id where d.course_id = ? and d.title = ? and p.pdf_page = ?",
    args: [course.id, document, pdfPage],
  });
  return r.rows.length ? String(r.rows[0].text) : null;
}

describe("the demo course's golden set", () => {
  it("is seeded with 25 questions of every kind, each valid in the lib/eval format", async () => {
    const set = await findGoldenSet(db.db, { courseId: course.id, name: DEMO_GOLDEN_SET });
    const stored = await listGoldenQuestions(db.db, { setId: set!.id, course: "demo" });
    expect(stored.map((q) => q.golden)).toEqual(demoGoldenQuestions);
    for (const kind of kinds) expect(stored.filter((q) => q.golden.kind === kind), kind).toHaveLength(25);
    for (const q of demoGoldenQuestions) expect(goldenQuestionSchema.safeParse(q).success, q.id).toBe(true);
  });

  it("asks none of the development sets' questions", () => {
    const development = ["golden.jsonl", "fresh.jsonl", "unanswerable.jsonl", "students.jsonl"].flatMap((f) => parseGoldenJsonl(readFileSync(`lib/eval/${f}`, "utf8"), f));
    const taken = new Set(development.map((g) => normalizeForMatch(g.question)));
    expect(demoGoldenQuestions.filter((q) => taken.has(normalizeForMatch(q.question))).map((q) => q.id)).toEqual([]);
  });

  it("has every gold passage on its page of the indexed course, and every expected answer on one of them", async () => {
    const problems: string[] = [];
    for (const q of demoGoldenQuestions) {
      const texts: string[] = [];
      for (const g of q.pages ?? []) {
        const text = await pageText(g.document, g.pdfPage);
        if (text === null) problems.push(`${q.id}: no page ${g.pdfPage} of “${g.document}”`);
        else if (g.quote && !normalizeForMatch(text).includes(normalizeForMatch(g.quote))) problems.push(`${q.id}: “${g.quote}” is not on ${g.document} p.${g.pdfPage}`);
        else texts.push(text);
      }
      if (q.answer && !texts.some((t) => normalizeForMatch(t).includes(normalizeForMatch(q.answer!)))) problems.push(`${q.id}: “${q.answer}” is on none of its pages`);
    }
    expect(problems).toEqual([]);
  });

  it("goes out as JSONL and comes back into another set unchanged", async () => {
    const set = (await findGoldenSet(db.db, { courseId: course.id, name: DEMO_GOLDEN_SET }))!;
    const text = goldenJsonl((await listGoldenQuestions(db.db, { setId: set.id, course: "demo" })).map((q) => q.golden));
    expect(text.trim().split("\n")).toHaveLength(100);
    const copy = await createGoldenSet(db.db, { courseId: course.id, name: "copy" });
    await addGoldenQuestions(db.db, { setId: copy.id, questions: parseGoldenJsonl(text, "demo.jsonl") });
    expect((await listGoldenQuestions(db.db, { setId: copy.id, course: "demo" })).map((q) => q.golden)).toEqual(demoGoldenQuestions);
  });

  it("refuses an import whose ids are taken, and adds none of it", async () => {
    const set = await createGoldenSet(db.db, { courseId: course.id, name: "clash" });
    await addGoldenQuestions(db.db, { setId: set.id, questions: demoGoldenQuestions.slice(0, 2) });
    await expect(addGoldenQuestions(db.db, { setId: set.id, questions: demoGoldenQuestions.slice(1, 5) })).rejects.toMatchObject({ code: "conflict:golden_set", message: expect.stringContaining(demoGoldenQuestions[1].id) });
    expect(await listGoldenQuestions(db.db, { setId: set.id, course: "demo" })).toHaveLength(2);
    await expect(createGoldenSet(db.db, { courseId: course.id, name: "clash" })).rejects.toMatchObject({ code: "conflict:golden_set" });
  });
});

describe("an evaluation run of a set", () => {
  it("scores every question with numbers from 0 to 1, reporting progress after each", async () => {
    const seen: number[] = [];
    const report = await runGoldenSet(db, { courseId: course.id, questions: demoGoldenQuestions, config: {}, generator: extractiveGenerator(), onProgress: (n) => void seen.push(n) });
    expect(seen).toEqual(demoGoldenQuestions.map((_, i) => i + 1));
    expect(report.questions).toHaveLength(100);
    for (const [key, value] of Object.entries(report.headline)) {
      expect(value, key).not.toBeNull();
      expect(value!, key).toBeGreaterThanOrEqual(0);
      expect(value!, key).toBeLessThanOrEqual(1);
    }
    // Every published citation passed validation, so each names a stored passage holding its quote.
    expect(report.metrics.citationValidity.rate).toBe(1);
    const unanswerable = report.questions.filter((q) => q.kind === "unanswerable");
    expect(unanswerable.every((q) => q.hit === null && q.correct === null)).toBe(true);
    expect(report.metrics.latency.retrieve.n).toBe(100);
  });

  it("is stored with its settings; an A/B run names the stage where each changed question diverged", async () => {
    const set = (await findGoldenSet(db.db, { courseId: course.id, name: DEMO_GOLDEN_SET }))!;
    const { run, done } = await startEvalRun(db, { course, set, request: { kind: "ab", config: {}, vs: { k: 1, maxPassages: 1 } }, wait: true, generator: extractiveGenerator() });
    const report = await done;
    const stored = (await getEvalRun(db.db, { courseId: course.id, runId: run.id }))!;
    expect(stored).toMatchObject({ status: "done", progress: 200, total: 200, kind: "ab" });
    expect(stored.configs).toEqual([await defaultRunConfig(db.db, course.id), { ...(await defaultRunConfig(db.db, course.id)), k: 1, maxPassages: 1 }]);
    if (report?.kind !== "ab") throw new Error("not an A/B report");
    const [a, b] = report.runs;
    expect(b.settings.k).toBe(1);
    expect(b.headline.recallAtK!).toBeLessThan(a.headline.recallAtK!);
    const changed = report.diffs.filter((d) => d.changed);
    expect(changed.length).toBeGreaterThan(0);
    // With one passage retrieved instead of eight, every changed outcome parted at retrieval.
    expect(new Set(changed.map((d) => d.stage))).toEqual(new Set(["retrieve"]));
  });

  it("refuses to run an empty set", async () => {
    const set = await createGoldenSet(db.db, { courseId: course.id, name: "empty" });
    await expect(startEvalRun(db, { course, set, request: { kind: "single", config: {} }, wait: true })).rejects.toMatchObject({ code: "bad_request:golden_set" });
  });

  it("uses the floor an instructor set for the course", async () => {
    expect(await courseAskOverrides(db.db, course.id)).toEqual({});
    await setCourseMinScore(db.db, { courseId: course.id, minScore: 0.42 });
    expect(await courseAskOverrides(db.db, course.id)).toEqual({ minScore: 0.42 });
    expect((await defaultRunConfig(db.db, course.id)).minScore).toBe(0.42);
    await db.client.execute("delete from course_settings");
  });
});

describe("the chunk-size experiment", () => {
  it("re-indexes into scratch copies and leaves the live course's chunks alone", async () => {
    const count = async () => Number((await db.client.execute({ sql: "select count(*) as n from chunks where course_id = ?", args: [course.id] })).rows[0].n);
    const before = await count();
    const questions = demoGoldenQuestions.filter((q) => q.kind === "answerable").slice(0, 5);
    const results = await chunkSizeExperiment(db, { courseId: course.id, courseTitle: course.title, sizes: [40, 400], questions, config: {}, worker, generator: extractiveGenerator() });
    expect(results.map((r) => r.targetTokens)).toEqual([40, 400]);
    expect(results[0].chunks).toBeGreaterThan(results[1].chunks);
    for (const r of results) expect(r.headline.hitAtK).not.toBeNull();
    expect(await count()).toBe(before);
  });
});
