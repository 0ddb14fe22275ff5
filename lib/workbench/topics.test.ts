import { describe, expect, it } from "vitest";
import type { StudentQuestion } from "@/lib/db/queries/questions";
import { gapsOf, groupByTerms, keyTerms, questionOverview, questionsCsv } from "./topics";

let n = 0;
function asked(question: string, status: StudentQuestion["status"], parts: StudentQuestion["parts"] = [], standalone = question): StudentQuestion {
  n++;
  return { traceId: `trc_${n}`, question, standalone, status, parts, askedAt: new Date(Date.UTC(2025, 8, 1, 12, n)) };
}

describe("key terms", () => {
  it("are the content lemmas of a question, without question words, stopwords or bare numbers", () => {
    expect(keyTerms("When is Assignment 2 due?")).toEqual(["assignment", "due"]);
    expect(keyTerms("Is there a penalty for late submissions?")).toEqual(["penalty", "late", "submission"]);
  });
});

describe("grouping by shared terms", () => {
  const questions = [
    "When is Assignment 2 due?",
    "When is Assignment 4 due?",
    "What is the late penalty?",
    "Is there a penalty for late submissions?",
    "What is the capital of France?",
    "On which day is the midterm exam?",
    "Where is the final exam held?",
    "What are the office hours?",
  ];

  it("groups questions by the term most of them share, labels each group with the terms most of it shares, and keeps the rest together last", () => {
    const groups = groupByTerms(questions, (q) => q);
    expect(groups.map((g) => [g.terms, g.items])).toEqual([
      [["assignment", "due"], ["When is Assignment 2 due?", "When is Assignment 4 due?"]],
      [["exam"], ["On which day is the midterm exam?", "Where is the final exam held?"]],
      [["late", "penalty"], ["What is the late penalty?", "Is there a penalty for late submissions?"]],
      [[], ["What is the capital of France?", "What are the office hours?"]],
    ]);
  });

  it("puts every question in exactly one group", () => {
    const grouped = groupByTerms(questions, (q) => q).flatMap((g) => g.items);
    expect(grouped.sort()).toEqual([...questions].sort());
  });

  it("forms topics by specific terms before a term more than half of many questions share", () => {
    const many = ["course grading", "course textbook", "course textbook price", "course exam", "course exam date", "course office"];
    const groups = groupByTerms(many, (q) => q);
    expect(groups.map((g) => [g.terms, g.items.length])).toEqual([
      [["exam", "course"], 2],
      [["textbook", "course"], 2],
      [["course"], 2],
    ]);
  });
});

describe("the questions overview", () => {
  const questions = [
    asked("When is Assignment 4 due?", "insufficient_evidence"),
    asked("When is Assignment 2 due?", "answered"),
    asked("What is the late penalty, and when is Assignment 4 due?", "partial", [
      { ask: "What is the late penalty", state: "supported" },
      { ask: "when is Assignment 4 due", state: "missing", gap: { kind: "unmentioned", text: "No passage found mentions “Assignment 4”." } },
    ]),
    asked("When is Assignment 2 due?", "answered"),
    asked("And the second one?", "answered", [], "When is assignment 2 due"),
    asked("What is the capital of France?", "insufficient_evidence", [
      { ask: "What is the capital of France", state: "missing", gap: { kind: "nothing_found", text: "Nothing in the notes mentions “capital” or “France”." } },
    ]),
  ];
  const overview = questionOverview(questions);

  it("counts each topic with its declined and partial shares and distinct sample wordings", () => {
    expect(overview).toMatchObject({ total: 6, declined: 2, partial: 1 });
    const assignments = overview.topics[0];
    expect(assignments).toMatchObject({ terms: ["assignment", "due"], count: 5, declinedShare: 1 / 5, partialShare: 1 / 5 });
    expect(assignments.samples).toEqual(["When is Assignment 4 due?", "When is Assignment 2 due?", "What is the late penalty, and when is Assignment 4 due?"]);
    expect(overview.topics[1]).toMatchObject({ terms: [], count: 1, declinedShare: 1, samples: ["What is the capital of France?"] });
  });

  it("groups follow-ups by their resolved question", () => {
    expect(overview.topicOf.get(questions[4].traceId)).toBe("assignment · due");
  });

  it("lists declined questions and the missing parts of partial answers as gaps, grouped", () => {
    expect(gapsOf(questions).map((g) => [g.kind, g.text, g.why])).toEqual([
      ["declined", "When is Assignment 4 due?", undefined],
      ["missing_part", "when is Assignment 4 due", "No passage found mentions “Assignment 4”."],
      ["declined", "What is the capital of France?", "Nothing in the notes mentions “capital” or “France”."],
    ]);
    expect(overview.gaps.map((g) => [g.terms, g.items.map((i) => i.text)])).toEqual([
      [["assignment", "due"], ["When is Assignment 4 due?", "when is Assignment 4 due"]],
      [[], ["What is the capital of France?"]],
    ]);
    expect(overview.gaps[0].items[1]).toMatchObject({ question: "What is the late penalty, and when is Assignment 4 due?", traceId: questions[2].traceId });
  });
});

describe("the CSV export", () => {
  it("has one quoted row a question, its topic, status, missing parts and why, and neutralises formulas", () => {
    const questions = [
      asked('=HYPERLINK("http://x") "quoted"', "insufficient_evidence"),
      asked("What is the late penalty, and when is Assignment 4 due?", "partial", [
        { ask: "What is the late penalty", state: "supported" },
        { ask: "when is Assignment 4 due", state: "missing", gap: { kind: "unmentioned", text: "No passage found mentions “Assignment 4”." } },
      ]),
    ];
    const lines = questionsCsv(questions, questionOverview(questions)).split("\r\n");
    expect(lines[0]).toBe('"asked_at","topic","status","question","missing_parts","why_missing","trace_id"');
    expect(lines[1]).toBe(`"${questions[0].askedAt.toISOString()}","asked once","insufficient_evidence","'=HYPERLINK(""http://x"") ""quoted""","","","${questions[0].traceId}"`);
    expect(lines[2]).toContain('"partial","What is the late penalty, and when is Assignment 4 due?","when is Assignment 4 due","No passage found mentions “Assignment 4”."');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe("");
  });
});
