import { describe, expect, it } from "vitest";
import { countTokens } from "@/lib/ai/tokenizer";
import { makeHit } from "./fixtures.mock";
import { ground } from "./ground";
import { countChatTokens, FixedPromptTooLargeError, isFixedPromptTooLargeError, pack } from "./pack";
import type { Hit, PackSettings } from "./types";

// Seed 000's boundary fixture, translated: a deliberately tiny window, not a real model limit.
const question = "How do gradient accumulation and batch size relate?";
const long = "Gradient accumulation adds gradients across microbatches. ".repeat(100);
const example = "Four microbatches of 8 examples give an effective batch of 32.";
const qualification = "Accumulation need not match a larger batch with batch-dependent layers.";
const small: PackSettings = { contextWindow: 256, outputReserve: 64, safetyMargin: 16, maxPassages: 8 };
const roomy: PackSettings = { contextWindow: 8192, outputReserve: 1024, safetyMargin: 256, maxPassages: 8 };

const hits = (...texts: string[]): Hit[] => texts.map((t, i) => makeHit(t, i + 1));
const run = (candidates: Hit[], settings: PackSettings, history: string[] = []) => pack({ question, history, candidates, settings, countTokens });

/** The request the packer claims it measured, rebuilt independently. */
const rendered = (state: ReturnType<typeof pack>, history: string[] = []) =>
  countChatTokens(ground({ question, history, selected: state.selected }).messages, countTokens);

describe("pack", () => {
  it("rejects a fixed prompt larger than the allowance instead of shortening the question", () => {
    let thrown: unknown;
    try {
      run(hits(example), { ...small, contextWindow: 32 });
    } catch (e) {
      thrown = e;
    }
    expect(isFixedPromptTooLargeError(thrown)).toBe(true);
    expect((thrown as Error).message).toBe("Fixed prompt exceeds input budget");
  });

  it("accepts a fixed prompt that fills the allowance exactly, and rejects it one token earlier", () => {
    const fixed = countChatTokens(ground({ question, history: [], selected: [] }).messages, countTokens);
    const exact = { ...small, contextWindow: fixed + small.outputReserve + small.safetyMargin };
    const state = run([], exact);
    expect(state.fixedTokens).toBe(fixed);
    expect(state.promptTokens).toBe(state.allowance);
    expect(() => run([], { ...exact, contextWindow: exact.contextWindow - 1 })).toThrow(FixedPromptTooLargeError);
  });

  it("counts earlier questions as part of the fixed prompt", () => {
    const withHistory = run([], roomy, ["What is a microbatch?"]);
    expect(withHistory.fixedTokens).toBeGreaterThan(run([], roomy).fixedTokens);
  });

  it("skips an over-budget passage, drops the duplicate and keeps the short qualification (seed 000)", () => {
    const state = run(hits(long, example, example, qualification), small);
    expect(state.allowance).toBe(176);
    expect(state.decisions.map((d) => d.decision)).toEqual(["over_budget", "included", "duplicate", "included"]);
    expect(state.selected.map((p) => p.text).sort()).toEqual([example, qualification].sort());
    expect(state.promptTokens).toBeLessThanOrEqual(state.allowance);
    expect(state.promptTokens).toBe(rendered(state));
  });

  it("keeps the qualification when it comes before the long passage", () => {
    const state = run(hits(qualification, long, example, example), small);
    expect(state.decisions.map((d) => d.decision)).toEqual(["included", "over_budget", "included", "duplicate"]);
    expect(state.selected.map((p) => p.text)).toContain(qualification);
    expect(state.promptTokens).toBeLessThanOrEqual(state.allowance);
  });

  it("gives every candidate exactly one decision, with trial tokens only where a trial was made", () => {
    const candidates = hits(long, example, example, qualification);
    const state = run(candidates, small);
    expect(state.decisions.map((d) => [d.chunkId, d.rank])).toEqual(candidates.map((h) => [h.passage.chunkId, h.rank]));
    const [overBudget, first, duplicate, second] = state.decisions;
    expect(overBudget.trialTokens).toBeGreaterThan(state.allowance);
    expect(duplicate.trialTokens).toBeNull();
    expect(first.trialTokens).toBeLessThan(second.trialTokens!);
    expect(second.trialTokens).toBe(state.promptTokens);
  });

  it("includes a passage that fits exactly and rejects it with one token less", () => {
    const fits = run(hits(example), roomy);
    const needed = fits.promptTokens;
    const exact = { ...small, contextWindow: needed + small.outputReserve + small.safetyMargin };
    expect(run(hits(example), exact).decisions[0].decision).toBe("included");
    const short = run(hits(example), { ...exact, contextWindow: exact.contextWindow - 1 });
    expect(short.decisions[0]).toMatchObject({ decision: "over_budget", trialTokens: needed });
    expect(short.selected).toEqual([]);
    expect(short.promptTokens).toBe(short.fixedTokens);
  });

  it("labels included passages S1..Sn in retrieval order, without gaps for skipped ones", () => {
    const state = run(hits(long, example, example, qualification), small);
    const byLabel = Object.fromEntries(state.selected.map((p) => [p.label, p.chunkId]));
    expect(byLabel).toEqual({ S1: "chunk-2", S2: "chunk-4" });
  });

  it("stops at the passage cap and marks every later candidate cap_reached", () => {
    const state = run(hits("Alpha is first.", "Beta is second.", "Gamma is third.", "Alpha is first."), { ...roomy, maxPassages: 2 });
    expect(state.decisions.map((d) => d.decision)).toEqual(["included", "included", "cap_reached", "cap_reached"]);
    expect(state.decisions.slice(2).every((d) => d.trialTokens === null)).toBe(true);
    expect(state.selected).toHaveLength(2);
  });

  it("puts the highest-ranked passages at the edges and the lowest in the middle", () => {
    const texts = ["One is ranked first.", "Two is ranked second.", "Three is ranked third.", "Four is ranked fourth.", "Five is ranked fifth."];
    const state = run(hits(...texts), roomy);
    expect(state.selected.map((p) => p.label)).toEqual(["S1", "S3", "S5", "S4", "S2"]);
    expect(state.selected.map((p) => p.chunkId)).toEqual(["chunk-1", "chunk-3", "chunk-5", "chunk-4", "chunk-2"]);
    const user = ground({ question, history: [], selected: state.selected }).messages[1].content;
    const positions = ["S1", "S3", "S5", "S4", "S2"].map((l) => user.indexOf(`<passage id="${l}">`));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(state.promptTokens).toBe(rendered(state));
  });
});
