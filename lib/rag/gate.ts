import type { QuestionAnalysis } from "./analyze/analyze";
import { readPassages, retrievalRanks, scoreParts } from "./extractive/answer";
import type { ExtractiveModel } from "./extractive/model";
import type { GateState, Hit } from "./types";

/**
 * gate: a hit passes when one of its answer units reaches the floor of the answer ranker's
 * calibrated probability for some requested part (the same score the extractive generator
 * answers by). Retrieval order is kept; every hit lands in exactly one list.
 */
export function gate(hits: Hit[], { analysis, floor, model }: { analysis: QuestionAnalysis; floor: number; model?: ExtractiveModel }): GateState {
  const readings = readPassages(hits.map((h) => h.passage), retrievalRanks(hits));
  const best = new Array<number>(hits.length).fill(0);
  for (const units of scoreParts(analysis, readings, model)) {
    for (const u of units) best[u.passage] = Math.max(best[u.passage], u.score);
  }
  const scores: GateState["scores"] = [];
  const passed: Hit[] = [];
  const rejected: Hit[] = [];
  hits.forEach((hit, i) => {
    scores.push({ chunkId: hit.passage.chunkId, score: Math.round(best[i] * 1000) / 1000 });
    (best[i] >= floor && best[i] > 0 ? passed : rejected).push(hit);
  });
  return { floor, scores, passed, rejected };
}
