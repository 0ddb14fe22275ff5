import { describe, expect, it } from "vitest";
import type { AnswerStatus, TraceRecord } from "@/lib/rag/pipeline";
import { concludeProbe } from "./probe";

const settings: TraceRecord["settings"] = {
  k: 8,
  minScore: 0.3,
  contextWindow: 8192,
  outputReserve: 1024,
  safetyMargin: 256,
  maxPassages: 6,
  generator: "extractive",
  model: "extractive",
  temperature: null,
};

const hit = (chunkId: string, rank: number) => ({
  chunkId,
  rank,
  documentTitle: "Course Syllabus",
  revision: 1,
  pdfPage: 2,
  lexicalScore: 1,
  lexicalRank: rank,
  denseScore: null,
  denseRank: null,
  fusedScore: 1,
});

/** A run's trace: what it retrieved, what passed the gate, what was sent, and its status. */
function run(status: AnswerStatus, { hits = [], passed = hits, sent = passed, decisions = {} }: { hits?: string[]; passed?: string[]; sent?: string[]; decisions?: Record<string, "over_budget" | "cap_reached" | "duplicate"> } = {}): TraceRecord {
  return {
    id: `trc_${status}`,
    courseId: "crs_1",
    question: "What is the late penalty?",
    history: [],
    standaloneQuery: "What is the late penalty?",
    settings,
    retrieval: { matchExpression: null, dense: false, hits: hits.map((id, i) => hit(id, i + 1)), error: null },
    gate: { floor: settings.minScore, scores: hits.map((chunkId) => ({ chunkId, score: passed.includes(chunkId) ? 0.9 : 0.12 })), passed },
    packing: {
      allowance: 6912,
      fixedTokens: 100,
      promptTokens: 400,
      selected: sent.map((chunkId, i) => ({ chunkId, label: `S${i + 1}` })),
      decisions: passed.map((chunkId, i) => ({ chunkId, rank: i + 1, decision: decisions[chunkId] ?? "included", trialTokens: 200 })),
    },
    attempts: [],
    partStates: [],
    status,
    timings: {},
  };
}

const empty = run("insufficient_evidence");

describe("the probe's conclusion", () => {
  it("has nothing to explain when the retrieved context answers", () => {
    const c = concludeProbe({ retrieved: run("answered", { hits: ["a"] }), oracle: run("answered", { hits: ["a"] }), empty });
    expect(c).toMatchObject({ verdict: "answered", emptyAbstained: true });
  });

  it("is a retrieval miss when the picked passages answer and retrieval never found them", () => {
    const c = concludeProbe({ retrieved: run("insufficient_evidence", { hits: ["x", "y"] }), oracle: run("answered", { hits: ["a"] }), empty });
    expect(c.verdict).toBe("retrieval_miss");
    expect(c.summary).toMatch(/^Retrieval miss: .*top 8/);
  });

  it("is a packing loss when retrieval found a picked passage but the gate held it back", () => {
    const c = concludeProbe({ retrieved: run("insufficient_evidence", { hits: ["x", "a"], passed: [] }), oracle: run("answered", { hits: ["a"] }), empty });
    expect(c.verdict).toBe("packing_loss");
    expect(c.summary).toContain("retrieval rank 2) scored 0.12 for answering, under the floor of 0.3");
  });

  it("is a packing loss when a picked passage passed the gate but did not fit, and says which limit", () => {
    const budget = concludeProbe({ retrieved: run("partial", { hits: ["x", "a"], sent: ["x"], decisions: { a: "over_budget" } }), oracle: run("answered", { hits: ["a", "x"] }), empty });
    expect(budget.verdict).toBe("packing_loss");
    expect(budget.summary).toContain("did not fit the context budget of 8192 tokens");
    const cap = concludeProbe({ retrieved: run("partial", { hits: ["x", "a"], sent: ["x"], decisions: { a: "cap_reached" } }), oracle: run("answered", { hits: ["a"] }), empty });
    expect(cap.summary).toContain("after the cap of 6 passages");
  });

  it("is a generation failure when even the picked passages are not answered", () => {
    const c = concludeProbe({ retrieved: run("insufficient_evidence", { hits: ["a"] }), oracle: run("insufficient_evidence", { hits: ["a"] }), empty });
    expect(c.verdict).toBe("generation_failure");
    expect(c.summary).toMatch(/^Generation failure: even with the passages you picked/);
  });

  it("says nothing about the evidence when a run failed outright", () => {
    const c = concludeProbe({ retrieved: run("retrieval_error"), oracle: run("answered", { hits: ["a"] }), empty });
    expect(c.verdict).toBe("inconclusive");
    expect(c.summary).toContain("The retrieved run failed (retrieval_error)");
  });

  it("warns when the empty context did not abstain", () => {
    const c = concludeProbe({ retrieved: run("answered", { hits: ["a"] }), oracle: run("answered", { hits: ["a"] }), empty: run("answered") });
    expect(c.emptyAbstained).toBe(false);
    expect(c.summary).toContain("with no passages at all the generator still answered");
  });
});
