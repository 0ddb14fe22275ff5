import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "./analyze/analyze";
import { defaultModel } from "./extractive/model";
import { makeHit } from "./fixtures.mock";
import { readPassages, retrievalRanks, scoreParts } from "./extractive/answer";
import { gate } from "./gate";
import type { Hit } from "./types";

const ids = (hits: Hit[]) => hits.map((h) => h.passage.chunkId);
const hit = (text: string, rank: number, documentTitle: string) => makeHit(text, rank, { passage: { documentId: `doc-${rank}`, documentTitle } });
const floor = defaultModel.floor;

describe("gate", () => {
  const opening = hit("The herbarium opens at 9:00 on weekdays.", 1, "visitor-guide.pdf");
  const cacti = hit("Volunteers water the cacti on Fridays.", 2, "volunteers.pdf");
  const parking = hit("Parking permits cost 40 dollars per term.", 3, "parking.pdf");
  const analysis = analyzeQuestion("When does the herbarium open?");

  it("passes a passage that answers the question and rejects unrelated ones", () => {
    const state = gate([opening, cacti, parking], { analysis, floor });
    expect(ids(state.passed)).toEqual(["chunk-1"]);
    expect(ids(state.rejected)).toEqual(["chunk-2", "chunk-3"]);
    expect(state.floor).toBe(floor);
  });

  it("reports one score per hit, in retrieval order, the answering passage above the floor and the others below", () => {
    const state = gate([opening, cacti, parking], { analysis, floor });
    expect(state.scores.map((s) => s.chunkId)).toEqual(["chunk-1", "chunk-2", "chunk-3"]);
    const [a, b, c] = state.scores.map((s) => s.score);
    expect(a).toBeGreaterThanOrEqual(floor);
    expect(b).toBeLessThan(floor);
    expect(c).toBeLessThan(floor);
    for (const s of state.scores) {
      expect(s.score).toBeGreaterThan(0);
      expect(s.score).toBeLessThan(1);
      expect(Math.round(s.score * 1000) / 1000).toBe(s.score);
    }
  });

  it("puts every hit in exactly one list, each list in retrieval order", () => {
    const hits = [
      hit("Volunteers water the cacti on Fridays.", 1, "volunteers.pdf"),
      hit("The herbarium opens at 9:00 on weekdays.", 2, "visitor-guide.pdf"),
      hit("Herbarium opening times\nThe herbarium opens at 8:30 on weekdays.", 3, "spring-notice.pdf"),
      hit("Parking permits cost 40 dollars per term.", 4, "parking.pdf"),
    ];
    const state = gate(hits, { analysis, floor });
    expect(ids(state.passed)).toEqual(["chunk-2", "chunk-3"]);
    expect(ids(state.rejected)).toEqual(["chunk-1", "chunk-4"]);
    expect([...ids(state.passed), ...ids(state.rejected)].sort()).toEqual(ids(hits).sort());
    expect(state.scores).toHaveLength(hits.length);
  });

  it("rejects everything at floor 1", () => {
    const state = gate([opening, cacti, parking], { analysis, floor: 1 });
    expect(state.passed).toEqual([]);
    expect(ids(state.rejected)).toEqual(["chunk-1", "chunk-2", "chunk-3"]);
  });

  it("passes nothing from nothing", () => {
    expect(gate([], { analysis, floor })).toEqual({ floor, scores: [], passed: [], rejected: [] });
  });

  it("judges each requested part: a passage answering only the second part passes", () => {
    const two = analyzeQuestion("Who waters the cacti, and when does the herbarium open?");
    expect(two.parts).toHaveLength(2);
    const state = gate([parking, opening], { analysis: two, floor });
    expect(ids(state.passed)).toEqual(["chunk-1"]);
    expect(ids(state.rejected)).toEqual(["chunk-3"]);
  });
});

describe("gate and answer agree", () => {
  // The answering passage lacks "guided", which the first passage repeats: alone, the missing word would weigh the most.
  const hits = [
    hit("Guided walks start at the north door.\nGuided walks last an hour.\nThe glasshouse is heated in winter.", 1, "walks.pdf"),
    hit("Glasshouse tours run on Saturdays at 11:00.", 2, "calendar.pdf"),
    hit("The shop sells seeds and postcards.", 3, "shop.pdf"),
  ];
  const analysis = analyzeQuestion("When do the guided glasshouse tours run?");
  const ranks = retrievalRanks(hits);
  const best = (scored: ReturnType<typeof scoreParts>) => Math.round(Math.max(...scored[0].map((s) => s.score)) * 1000) / 1000;

  it("scores a passage's units in the answer as the gate scored them, measured over every retrieved passage", () => {
    const state = gate(hits, { analysis, floor });
    const sent = [hits[1].passage];
    const all = hits.map((h) => h.passage);
    // A fresh analysis: the answer computes its scores itself rather than taking the gate's.
    const inAnswer = best(scoreParts(analyzeQuestion("When do the guided glasshouse tours run?"), readPassages(sent, ranks, all), defaultModel, readPassages(all, ranks)));
    expect(inAnswer).toBe(state.scores[1].score);
    // Measured over the sent passage alone, the same units score otherwise: the gate could pass a passage the answer then declines.
    expect(best(scoreParts(analysis, readPassages(sent, ranks)))).not.toBe(state.scores[1].score);
  });

  it("hands the answer the gate's scores for the passages that passed, as computing them afresh would give", () => {
    const all = hits.map((h) => h.passage);
    const sent = [hits[1].passage, hits[0].passage];
    const shape = (scored: ReturnType<typeof scoreParts>) => scored.map((units) => units.map((s) => [s.passage, s.quote, s.score, s.excluded]));
    const question = "When do the guided glasshouse tours run?";
    const gated = analyzeQuestion(question);
    gate(hits, { analysis: gated, floor });
    const fresh = scoreParts(analyzeQuestion(question), readPassages(sent, ranks, all), defaultModel, readPassages(all, ranks));
    expect(shape(scoreParts(gated, readPassages(sent, ranks, all), defaultModel, readPassages(all, ranks)))).toEqual(shape(fresh));
  });
});
