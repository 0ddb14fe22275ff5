import { contentTerms } from "./question";
import type { GateState, Hit } from "./types";

/**
 * gate: a hit passes when it contains at least `minScore` (0–1) of the content terms of some
 * requested part. Retrieval order is kept; every hit lands in exactly one list.
 */
export function gate(hits: Hit[], { minScore, parts }: { minScore: number; parts: string[][] }): GateState {
  const wanted = parts.map((terms) => [...new Set(terms)]).filter((terms) => terms.length > 0);
  const coverage: GateState["coverage"] = [];
  const passed: Hit[] = [];
  const rejected: Hit[] = [];
  for (const hit of hits) {
    const present = new Set(contentTerms(hit.passage.text));
    const best = wanted.reduce((max, terms) => Math.max(max, terms.filter((t) => present.has(t)).length / terms.length), 0);
    coverage.push({ chunkId: hit.passage.chunkId, coverage: Math.round(best * 1000) / 1000 });
    (best >= minScore && best > 0 ? passed : rejected).push(hit);
  }
  return { minScore, coverage, passed, rejected };
}
