/**
 * Quality floors on the golden TEST split (lib/eval/golden.jsonl) with the default settings and
 * the extractive generator: fails when answer quality regresses. The floors sit a little below
 * what the system measured when they were set (scripts/eval.ts --split test prints the current
 * values); raise them when the system improves, never lower them to make a change pass without
 * reading the misses first.
 *
 * The golden set is development data: the ranker's weights are fitted on it (lib/eval/fit.ts),
 * so these floors guard against regressions, not generalisation (README "Quality" reports the
 * leave-one-document-out figures). Measured with the fitted ranker (51 questions, k=8, floor
 * 0.35, maxPassages=6): status accuracy 88.2% (45/51), answerable answered 89.5% (34/38), false
 * answers 1/13, partial over-answered 0/6, page accuracy 80.0% (28/35), answer hits 75.8%
 * (25/33), validation failures 0. Each floor is about 5 points (2–3 questions) lower.
 */
import { basename } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeForMatch, splits, type Metrics } from "./metrics";
import { defaultModel } from "@/lib/rag/pipeline";
import { closeEvalDb, corpusFiles, DEMO_COURSE, evalDb, loadGolden, pageText, runGolden, type RunReport } from "./run";

const FLOORS = {
  statusAccuracy: 0.83,
  answerableAnswered: 0.84,
  pageAccuracy: 0.74,
  answerHits: 0.7,
  /** At most this many of the questions that must be declined may be answered. */
  falseAnswers: 2,
  /** The floor is now the lowest that declines 90% of unanswerable course questions (README): one missing part of a two-part test question is answered from a neighbouring sentence — a measured cost, kept visible here. */
  partialOverAnswered: 1,
};

let report: RunReport;
let m: Metrics;

beforeAll(async () => {
  // The extractive generator with the shipped ranker, whatever the environment configures.
  report = await runGolden({ split: "test", model: defaultModel });
  m = report.metrics;
}, 120_000);

afterAll(async () => {
  await closeEvalDb();
});

const misses = () =>
  report.results
    .filter((r) => r.cause)
    .map((r) => `${r.golden.id} [${r.cause}] expected ${r.golden.expect}, got ${r.status}`)
    .join("\n");

describe("golden set", () => {
  it("covers the demo course and every corpus PDF in both splits", () => {
    const golden = loadGolden();
    const courses = [DEMO_COURSE, ...corpusFiles().map((f) => basename(f).replace(/\.pdf$/i, ""))];
    for (const course of courses) {
      for (const split of splits) expect(golden.filter((g) => g.course === course && g.split === split).length, `${course} / ${split}`).toBeGreaterThanOrEqual(5);
    }
    expect(golden.every((g) => courses.includes(g.course))).toBe(true);
  });

  it("labels point at indexed pages that contain the expected answer", async () => {
    const db = await evalDb();
    const problems: string[] = [];
    for (const g of loadGolden()) {
      const texts: string[] = [];
      for (const p of g.pages ?? []) {
        const text = await pageText(db, g.course, p.document, p.pdfPage);
        if (text === null) problems.push(`${g.id}: no page ${p.pdfPage} in “${p.document}”`);
        else texts.push(normalizeForMatch(text));
      }
      if (g.answer && !texts.some((t) => t.includes(normalizeForMatch(g.answer!)))) problems.push(`${g.id}: “${g.answer}” on none of its pages`);
    }
    expect(problems).toEqual([]);
  });
});

describe("golden test split, default settings", () => {
  it("never fails validation and never errors", () => {
    expect(m.validationFailures).toBe(0);
    expect(m.operationalErrors).toBe(0);
  });

  it("never answers a clearly off-topic question", () => {
    expect(m.offTopicFalseAnswers.n).toBeGreaterThan(0);
    expect(m.offTopicFalseAnswers.hits, misses()).toBe(0);
  });

  it("declines what the notes do not say", () => {
    expect(m.falseAnswers.hits, misses()).toBeLessThanOrEqual(FLOORS.falseAnswers);
    expect(m.partialOverAnswered.hits, misses()).toBeLessThanOrEqual(FLOORS.partialOverAnswered);
  });

  it("keeps status accuracy and helpfulness above their floors", () => {
    expect(m.statusAccuracy.rate!, misses()).toBeGreaterThanOrEqual(FLOORS.statusAccuracy);
    expect(m.answerableAnswered.rate!, misses()).toBeGreaterThanOrEqual(FLOORS.answerableAnswered);
  });

  it("cites the right pages with the right text", () => {
    expect(m.pageAccuracy.rate!, misses()).toBeGreaterThanOrEqual(FLOORS.pageAccuracy);
    expect(m.answerHits.rate!, misses()).toBeGreaterThanOrEqual(FLOORS.answerHits);
  });
});
