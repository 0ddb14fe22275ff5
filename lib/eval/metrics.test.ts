import { describe, expect, it } from "vitest";
import {
  answerFound,
  answerHitRate,
  answerableAnsweredRate,
  byKind,
  citationPageAccuracy,
  computeMetrics,
  confusion,
  diagnose,
  falseAnswerRate,
  goldenQuestionSchema,
  isMiss,
  normalizeForMatch,
  operationalErrors,
  partialOverAnswerRate,
  rate,
  statusAccuracy,
  unhelpfulRefusalRate,
  validationFailures,
  type EvalPart,
  type EvalRecord,
  type GoldenQuestion,
  type StagePages,
} from "./metrics";

const golden = (over: Partial<GoldenQuestion> = {}): GoldenQuestion => ({
  id: "q",
  course: "demo",
  question: "When is assignment 2 due?",
  expect: "answered",
  pages: [{ document: "Syllabus", pdfPage: 2 }],
  answer: "25 September",
  kind: "answerable",
  split: "test",
  ...over,
});

const supported = (quote: string, pdfPage = 2, documentTitle = "Course Syllabus"): EvalPart => ({
  ask: "ask",
  state: "supported",
  claims: [{ text: quote, citations: [{ documentTitle, pdfPage, quote }] }],
});
const missing: EvalPart = { ask: "other", state: "missing", claims: [] };

const record = (g: Partial<GoldenQuestion>, status: string, parts: EvalPart[] = []): EvalRecord => ({ golden: golden(g), status, parts });

// A small, hand-counted set.
const answeredRight = record({ id: "a1" }, "answered", [supported("Assignment 2 is due on 25 September at 17:00.")]);
const answeredWrongPage = record({ id: "a2" }, "answered", [supported("Assignment 2 is due on 25 September.", 4)]);
const answeredWrongText = record({ id: "a3" }, "answered", [supported("Assignment 1 is due on 11 September.")]);
const refused = record({ id: "a4" }, "insufficient_evidence", [{ ...missing, ask: "When is assignment 2 due?" }]);
const abstained = record({ id: "u1", expect: "insufficient_evidence", kind: "unanswerable", pages: undefined, answer: undefined }, "insufficient_evidence");
const falseAnswer = record({ id: "u2", expect: "insufficient_evidence", kind: "unanswerable", pages: undefined, answer: undefined }, "answered", [supported("Something.", 1)]);
const offTopicAbstained = record({ id: "u3", expect: "insufficient_evidence", kind: "unanswerable", pages: undefined, answer: undefined, offTopic: true }, "insufficient_evidence");
const partialRight = record({ id: "p1", expect: "partial", kind: "two-part" }, "partial", [supported("Assignment 2 is due on 25 September."), missing]);
const partialOver = record({ id: "p2", expect: "partial", kind: "two-part" }, "answered", [supported("Assignment 2 is due on 25 September."), supported("Assignment 4 is due on 1 May.", 3)]);
const failed = record({ id: "a5", kind: "follow-up", history: ["x"] }, "validation_failed");

const all = [answeredRight, answeredWrongPage, answeredWrongText, refused, abstained, falseAnswer, offTopicAbstained, partialRight, partialOver, failed];

describe("rates", () => {
  it("reports null, not 0 or 1, when nothing is eligible", () => {
    expect(rate(0, 0)).toEqual({ hits: 0, n: 0, rate: null });
    expect(falseAnswerRate([answeredRight])).toEqual({ hits: 0, n: 0, rate: null });
  });

  it("status accuracy counts exact status matches", () => {
    // right: a1, a2, a3 (answered), u1, u3 (abstained), p1 (partial)
    expect(statusAccuracy(all)).toEqual(rate(6, 10));
  });

  it("answerable questions: answered (or partial) vs refused", () => {
    // eligible: a1 a2 a3 a4 p1 p2 a5 = 7; answered/partial: a1 a2 a3 p1 p2 = 5; refused: a4
    expect(answerableAnsweredRate(all)).toEqual(rate(5, 7));
    expect(unhelpfulRefusalRate(all)).toEqual(rate(1, 7));
  });

  it("false answers: asserting on a question that must be declined, overall and off-topic only", () => {
    expect(falseAnswerRate(all)).toEqual(rate(1, 3));
    expect(falseAnswerRate(all, { offTopicOnly: true })).toEqual(rate(0, 1));
    const conflict = record({ expect: "insufficient_evidence", kind: "unanswerable", pages: undefined, answer: undefined }, "conflicting_evidence");
    expect(falseAnswerRate([conflict]).hits).toBe(1);
  });

  it("partial questions answered in full are over-answers", () => {
    expect(partialOverAnswerRate(all)).toEqual(rate(1, 2));
  });

  it("page accuracy is per supported part of answers to questions with pages", () => {
    // parts: a1 ✓, a2 ✗ (p.4), a3 ✓ (p.2, wrong text), p1 ✓, p2 ✓ + ✗ (p.3) → 4/6 (u2 has no expected pages)
    expect(citationPageAccuracy(all)).toEqual(rate(4, 6));
  });

  it("a page matches by title substring (case-insensitive) and physical page", () => {
    const r = record({ pages: [{ document: "syllabus", pdfPage: 2 }] }, "answered", [supported("x", 2, "CS 101: Course Syllabus")]);
    expect(citationPageAccuracy([r])).toEqual(rate(1, 1));
    const other = record({ pages: [{ document: "Notice", pdfPage: 2 }] }, "answered", [supported("x", 2, "Course Syllabus")]);
    expect(citationPageAccuracy([other])).toEqual(rate(0, 1));
  });

  it("answer hits look in claims and quotes, normalised", () => {
    // eligible: a1 a2 a3 p1 p2 (u2 has no answer) → hits a1 a2 p1 p2
    expect(answerHitRate(all)).toEqual(rate(4, 5));
    const dashes = record({ answer: "3-4 people" }, "answered", [supported("teams of 3–4  People.")]);
    expect(answerFound(dashes)).toBe(true);
    expect(normalizeForMatch("“Quoted”\u00a0text – here")).toBe('"quoted" text - here');
  });

  it("counts validation failures and operational errors separately", () => {
    expect(validationFailures(all)).toBe(1);
    expect(operationalErrors(all)).toBe(0);
    expect(operationalErrors([record({}, "retrieval_error"), record({}, "generation_error")])).toBe(2);
  });

  it("builds a confusion table and a per-kind breakdown", () => {
    expect(confusion(all).answered).toEqual({ answered: 3, insufficient_evidence: 1, validation_failed: 1 });
    const kinds = byKind(all);
    expect(Object.keys(kinds)).toEqual(["answerable", "follow-up", "two-part", "unanswerable"]);
    expect(kinds.unanswerable.n).toBe(3);
    expect(kinds.unanswerable.falseAnswers).toEqual(rate(1, 3));
    expect(kinds["two-part"].statusAccuracy).toEqual(rate(1, 2));
  });

  it("computeMetrics gathers everything", () => {
    const m = computeMetrics(all);
    expect(m.n).toBe(10);
    expect(m.statusAccuracy.rate).toBeCloseTo(0.6);
    expect(m.validationFailures).toBe(1);
    expect(m.byCourse.demo.n).toBe(10);
  });
});

describe("misses and causes", () => {
  const stages = (over: Partial<StagePages> = {}): StagePages => ({ retrieved: [], passed: [], sent: [], ...over });
  const p2 = { documentTitle: "Course Syllabus", pdfPage: 2 };

  it("a right status with the right page and text is not a miss", () => {
    expect(isMiss(answeredRight)).toBe(false);
    expect(isMiss(abstained)).toBe(false);
    expect(diagnose(answeredRight, stages())).toBeNull();
  });

  it("a right status with a wrong page or text is a miss", () => {
    expect(isMiss(answeredWrongPage)).toBe(true);
    expect(isMiss(answeredWrongText)).toBe(true);
  });

  it("traces a lost answer to the first stage that dropped the expected page", () => {
    expect(diagnose(refused, stages())).toBe("retrieval");
    expect(diagnose(refused, stages({ retrieved: [p2] }))).toBe("gate");
    expect(diagnose(refused, stages({ retrieved: [p2], passed: [p2] }))).toBe("packing");
    expect(diagnose(refused, stages({ retrieved: [p2], passed: [p2], sent: [p2] }))).toBe("extractive");
    expect(diagnose(answeredWrongText, stages({ retrieved: [p2], passed: [p2], sent: [p2] }))).toBe("extractive");
  });

  it("names false answers, wrong statuses and errors", () => {
    expect(diagnose(falseAnswer, stages())).toBe("false_answer");
    expect(diagnose(partialOver, stages())).toBe("false_answer");
    expect(diagnose(failed, stages())).toBe("error");
    expect(diagnose(record({}, "conflicting_evidence"), stages({ retrieved: [p2], passed: [p2], sent: [p2] }))).toBe("wrong_status");
  });
});

describe("golden question schema", () => {
  it("accepts a well-formed line and rejects inconsistent labels", () => {
    expect(goldenQuestionSchema.safeParse(golden()).success).toBe(true);
    expect(goldenQuestionSchema.safeParse({ ...golden(), pages: undefined }).success).toBe(false);
    expect(goldenQuestionSchema.safeParse({ ...golden(), kind: "unanswerable" }).success).toBe(false);
    expect(goldenQuestionSchema.safeParse({ ...golden(), offTopic: true }).success).toBe(false);
    expect(goldenQuestionSchema.safeParse({ ...golden(), kind: "follow-up" }).success).toBe(false);
    expect(goldenQuestionSchema.safeParse({ ...golden(), surprise: 1 }).success).toBe(false);
  });
});
