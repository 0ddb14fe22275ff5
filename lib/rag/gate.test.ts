import { describe, expect, it } from "vitest";
import { makeHit } from "./fixtures.mock";
import { gate } from "./gate";
import { contentTerms } from "./question";

const ids = (hits: Array<{ passage: { chunkId: string } }>) => hits.map((h) => h.passage.chunkId);
const hitWith = (_id: string, rank: number, text: string) => makeHit(text, rank);

describe("gate", () => {
  const hits = [
    hitWith("a", 1, "Assignment 2 is due on 18 September at 17:00."),
    hitWith("b", 2, "Assignments are submitted through the course portal."),
    hitWith("c", 3, "The midterm covers chapters one to four."),
  ];

  it("passes passages covering enough of a part's terms, rejects the rest, keeping retrieval order", () => {
    const state = gate(hits, { minScore: 0.6, parts: [contentTerms("When is assignment 2 due")] });
    expect(ids(state.passed)).toEqual([hits[0].passage.chunkId]);
    expect(ids(state.rejected)).toEqual([hits[1].passage.chunkId, hits[2].passage.chunkId]);
    expect(state.coverage.map((c) => c.coverage)).toEqual([1, expect.any(Number), 0]);
    expect(state.coverage[1].coverage).toBeLessThan(0.6);
  });

  it("judges each requested part on its own, so a two-part question is not diluted", () => {
    const parts = [contentTerms("What is the late penalty"), contentTerms("when is Assignment 4 due")];
    const penalty = hitWith("p", 1, "The late penalty is 10% per day.");
    expect(ids(gate([penalty], { minScore: 0.6, parts }).passed)).toEqual([penalty.passage.chunkId]);
  });

  it("does not depend on BM25's scale: a weak lexical score with full coverage passes", () => {
    const tiny = { ...hits[0], lexicalScore: 0.000001 };
    expect(gate([tiny], { minScore: 0.9, parts: [contentTerms("assignment 2 due")] }).passed).toHaveLength(1);
  });

  it("passes nothing from nothing, and nothing for a question without content terms", () => {
    expect(gate([], { minScore: 0.5, parts: [["x"]] })).toMatchObject({ passed: [], rejected: [] });
    expect(gate(hits, { minScore: 0, parts: [contentTerms("what is it?")] }).passed).toEqual([]);
  });
});

describe("gate: related words", () => {
  it("gives a term found only through a related word partial credit (GATE_RELATED_CREDIT)", () => {
    const collab = makeHit("Collaboration is allowed on homework.", 1);
    const unrelated = makeHit("Homework is submitted on Gradescope.", 2);
    const parts = [contentTerms("can we work together on homework")];
    const state = gate([collab, unrelated], { minScore: 0.5, parts });
    expect(state.coverage[0].coverage).toBeGreaterThan(state.coverage[1].coverage);
    expect(ids(state.passed)).toContain(collab.passage.chunkId);
  });
});

describe("gate and the grammar of questions", () => {
  it("does not count verbs like 'happen' or 'learn' against a passage about the subject", () => {
    const hit = makeHit("Students caught cheating receive a failing grade for the class.", 1);
    expect(gate([hit], { minScore: 0.5, parts: [contentTerms("what happens if I get caught cheating")] }).passed).toHaveLength(1);
    // Without the subject the verbs alone do not pass.
    expect(gate([makeHit("We learn a lot in this course.", 1)], { minScore: 0.5, parts: [contentTerms("which week do we learn about filesystems")] }).passed).toEqual([]);
  });
});
