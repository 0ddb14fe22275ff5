import { describe, expect, it } from "vitest";
import type { Answer, AnswerStatus, TraceRecord } from "@/lib/rag/pipeline";
import { defaultModel } from "@/lib/rag/pipeline";
import { shippedFloor } from "@/lib/eval/fit";
import { compareRuns, knobLimits, type PlaygroundRun } from "./compare";

const hit = (chunkId: string, rank: number) => ({
  chunkId,
  rank,
  documentTitle: `Doc ${chunkId}`,
  revision: 1,
  pdfPage: rank,
  lexicalScore: 1,
  lexicalRank: rank,
  denseScore: null,
  denseRank: null,
  fusedScore: 1,
});

/** A run: retrieved ids in rank order, those the gate passed, packing's decisions on them, and claims by part. */
function run(status: AnswerStatus, hits: string[], passed: string[], dropped: Record<string, "over_budget" | "cap_reached">, claims: Record<string, string[]>): PlaygroundRun {
  const sent = passed.filter((id) => !dropped[id]);
  const trace = {
    retrieval: { matchExpression: null, dense: false, hits: hits.map((id, i) => hit(id, i + 1)), error: null },
    gate: { floor: 0.3, scores: hits.map((chunkId) => ({ chunkId, score: passed.includes(chunkId) ? 0.8 : 0.1 })), passed },
    packing: {
      allowance: 1000,
      fixedTokens: 100,
      promptTokens: 500,
      selected: sent.map((chunkId, i) => ({ chunkId, label: `S${i + 1}` })),
      decisions: passed.map((chunkId, i) => ({ chunkId, rank: i + 1, decision: dropped[chunkId] ?? ("included" as const), trialTokens: 300 })),
    },
  } as unknown as TraceRecord;
  const answer = {
    status,
    parts: Object.entries(claims).map(([ask, texts]) => ({ ask, state: texts.length ? "supported" : "missing", claims: texts.map((text) => ({ text, citations: [] })) })),
    generator: "extractive",
    traceId: "trc_x",
  } as Answer;
  return { trace, answer };
}

describe("comparing two playground runs", () => {
  const original = run("partial", ["a", "b", "c"], ["a", "b"], { b: "cap_reached" }, { "the penalty": ["10% per day"], "the due date": [] });
  const variant = run("answered", ["a", "b", "c", "d"], ["a", "b", "d"], {}, { "The penalty": ["10% per day"], "the due date": ["25 September"] });
  const diff = compareRuns(original, variant);

  it("lists every passage either run retrieved, in rank order, with its fate in each run", () => {
    expect(diff.passages.map((p) => p.chunkId)).toEqual(["a", "b", "c", "d"]);
    expect(diff.passages[1].fates).toEqual([
      { rank: 2, score: 0.8, decision: "cap_reached", label: null },
      { rank: 2, score: 0.8, decision: "included", label: "S2" },
    ]);
    expect(diff.passages[2].fates[0]).toMatchObject({ decision: "below_floor", label: null });
    expect(diff.passages[3].fates[0]).toBeNull();
  });

  it("marks a passage changed when one run lacks it or treats it differently, and only then", () => {
    expect(diff.passages.map((p) => [p.chunkId, p.changed])).toEqual([
      ["a", false],
      ["b", true],
      ["c", false],
      ["d", true],
    ]);
  });

  it("pairs the claims both runs made and marks those only one made", () => {
    expect(diff.claims.map((c) => [c.text, c.made])).toEqual([
      ["10% per day", [true, true]],
      ["25 September", [false, true]],
    ]);
    expect(diff.statusChanged).toBe(true);
    expect(compareRuns(original, original).statusChanged).toBe(false);
  });
});

describe("the floor knob", () => {
  // A number input refuses to submit a value off its step: the form must accept the floor it shows as the default.
  const onStep = (value: number) => Math.abs(value / knobLimits.minScore.step - Math.round(value / knobLimits.minScore.step)) < 1e-9;

  it("takes the shipped floor, and any median of the folds' floors, as a value on its step", () => {
    expect(onStep(defaultModel.floor ?? 0)).toBe(true);
    const folds = (floors: number[]) => floors.map((floor, i) => ({ group: `course:fold-${i}`, floor }));
    expect(onStep(shippedFloor(folds([0.22, 0.23])))).toBe(true);
    expect(onStep(shippedFloor(folds([0.21, 0.22, 0.24, 0.25])))).toBe(true);
  });
});
