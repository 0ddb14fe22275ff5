import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractiveGenerator } from "@/lib/ai/generators";
import { countTokens } from "@/lib/ai/tokenizer";
import { getTrace, saveAnswer } from "@/lib/db/queries/answers";
import { ensureCourse } from "@/lib/db/queries/courses";
import { listStudentQuestions } from "@/lib/db/queries/questions";
import { getCurrentPassages, searchLexical } from "@/lib/db/queries/search";
import { getUserByEmail } from "@/lib/db/queries/users";
import { openTempDb } from "@/lib/db/temp";
import { DEMO_FACTS, demoCourse } from "@/lib/demo/course";
import { processQueuedJobs } from "@/lib/ingest/worker";
import { newId } from "@/lib/ids";
import { answerQuestion, type Passage, type TraceRecord } from "@/lib/rag/pipeline";
import { compareRuns } from "@/lib/workbench/compare";
import { questionOverview } from "@/lib/workbench/topics";
import { askDeps } from "./ask";
import { DEMO_ACCOUNTS, seedDemoCourse } from "./seed";
import { runPlayground, runProbe } from "./workbench";

type TempDb = Awaited<ReturnType<typeof openTempDb>>;
let db: TempDb;
let courseId: string;
let latePolicy: Passage;

const deps = () => askDeps(db, courseId, {}, extractiveGenerator());
const stored = async (traceId: string) => (await getTrace(db.db, { courseId, traceId }))?.data as TraceRecord | undefined;

beforeAll(async () => {
  db = await openTempDb();
  await seedDemoCourse(db);
  await processQueuedJobs(db, { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 8 });
  courseId = (await ensureCourse(db.db, { slug: demoCourse.slug })).id;
  // The instructor's pick, as the probe's search box finds it.
  const { hits } = await searchLexical(db.client, { courseId, terms: ["late submissions lose per day"], limit: 5 });
  latePolicy = hits.map((h) => h.passage).find((p) => p.text.includes(DEMO_FACTS.latePenalty))!;
  expect(latePolicy).toBeDefined();
});
afterAll(() => db.dispose());

describe("the evidence-substitution probe", () => {
  it("runs the question over the retrieved, the picked and no context; the empty context abstains and the picked one answers", async () => {
    const question = "What is the late penalty?";
    const { conditions, conclusion } = await runProbe(db, { courseId, question, oracle: [latePolicy] }, deps());
    const [retrieved, oracle, empty] = conditions;
    expect(conditions.map((c) => c.key)).toEqual(["retrieved", "oracle", "empty"]);

    expect(empty.status).toBe("insufficient_evidence");
    expect(empty.parts.flatMap((p) => p.claims)).toEqual([]);
    expect(empty.context).toEqual([]);
    // The empty condition's request was really sent, without a single passage.
    expect(empty.request!.map((m) => m.role)).toEqual(["system", "user"]);
    expect(empty.request![1].content).toBe(`Question: ${question}`);

    expect(oracle.status).toBe("answered");
    expect(oracle.context).toEqual([{ label: "S1", documentTitle: latePolicy.documentTitle, pdfPage: latePolicy.pdfPage }]);
    expect(oracle.request![1].content).toContain(`<passage id="S1">\n${latePolicy.text}\n</passage>`);
    expect(oracle.parts[0].claims[0].citations[0]).toMatchObject({ label: "S1", chunkId: latePolicy.chunkId });
    expect(oracle.parts[0].claims[0].citations[0].quote).toContain(DEMO_FACTS.latePenalty);

    expect(retrieved.status).toBe("answered");
    expect(conclusion).toMatchObject({ verdict: "answered", emptyAbstained: true });
    // Every run keeps its trace, marked as the probe's.
    for (const c of conditions) expect((await stored(c.traceId))?.origin).toBe("probe");
  });

  it("calls it a retrieval miss when search finds nothing but the picked passage answers", async () => {
    const blind = { ...deps(), retrievePorts: { lexical: async () => ({ expression: null, hits: [] }) } };
    const { conditions, conclusion } = await runProbe(db, { courseId, question: "What is the late penalty?", oracle: [latePolicy] }, blind);
    expect(conditions.map((c) => c.status)).toEqual(["insufficient_evidence", "answered", "insufficient_evidence"]);
    // The gate let nothing through, so the live pipeline sent no request at all.
    expect(conditions[0].request).toBeNull();
    expect(conclusion.verdict).toBe("retrieval_miss");
  });

  it("takes only current passages of the course as picks", async () => {
    const picked = await getCurrentPassages(db.client, { courseId, chunkIds: ["chk_nothing", latePolicy.chunkId] });
    expect(picked.map((p) => p.chunkId)).toEqual([latePolicy.chunkId]);
    expect(await getCurrentPassages(db.client, { courseId: "crs_other", chunkIds: [latePolicy.chunkId] })).toEqual([]);
  });
});

describe("the knob playground", () => {
  it("runs the question with the defaults and with other settings, keeps both traces and shows what changed", async () => {
    const { original, variant } = await runPlayground(db, { courseId, question: "When is Assignment 2 due?", history: [], knobs: { k: 1, minScore: 0.3, maxPassages: 6, contextWindow: 8192 } }, extractiveGenerator());
    expect(original.trace.settings.k).toBe(8);
    expect(variant.trace.settings).toMatchObject({ k: 1, minScore: 0.3 });
    expect(variant.trace.retrieval!.hits).toHaveLength(1);
    expect(original.trace.retrieval!.hits.length).toBeGreaterThan(1);
    const diff = compareRuns(original, variant);
    expect(diff.passages.filter((p) => p.fates[1] === null).length).toBe(original.trace.retrieval!.hits.length - 1);
    expect(diff.passages.every((p) => p.changed === (p.fates[1] === null || p.fates[0]!.decision !== p.fates[1].decision))).toBe(true);
    for (const run of [original, variant]) expect((await stored(run.trace.id))?.origin).toBe("playground");
  });
});

describe("the course's student questions", () => {
  it("are the students' stored answers only: not an instructor's, not a workbench run's, and never who asked", async () => {
    const student = (await getUserByEmail(db.db, { email: DEMO_ACCOUNTS.student.email }))!;
    const instructor = (await getUserByEmail(db.db, { email: DEMO_ACCOUNTS.instructor.email }))!;
    const askAs = async (userId: string, question: string) => {
      const run = answerQuestion({ courseId, question, history: [] }, deps());
      let step = await run.next();
      while (!step.done) step = await run.next();
      const { answer, trace } = step.value;
      await saveAnswer(db.db, { conversation: { id: newId("cnv"), isNew: true, courseId, userId, title: question }, question, answer, trace });
      return trace.id;
    };
    const declined = await askAs(student.id, "What is the capital of France?");
    const partial = await askAs(student.id, "What is the late penalty, and when is Assignment 4 due?");
    await askAs(instructor.id, "On which day is the midterm exam?");

    const questions = await listStudentQuestions(db.db, { courseId, limit: 100 });
    expect(questions.map((q) => [q.traceId, q.status])).toEqual([
      [partial, "partial"],
      [declined, "insufficient_evidence"],
    ]);
    expect(Object.keys(questions[0]).sort()).toEqual(["askedAt", "parts", "question", "standalone", "status", "traceId"]);
    const gaps = questionOverview(questions).gaps.flatMap((g) => g.items);
    expect(gaps.map((g) => [g.kind, g.text])).toEqual(
      expect.arrayContaining([
        ["declined", "What is the capital of France?"],
        ["missing_part", expect.stringMatching(/Assignment 4 due/)],
      ]),
    );
  });
});
