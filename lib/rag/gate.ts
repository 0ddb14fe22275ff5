import { contentTerms, relatedStems, stemWord } from "./question";
import type { GateState, Hit } from "./types";

/** Credit for a requested term found only through a related word ("work together" → "collaborate"), as in the generator. */
export const GATE_RELATED_CREDIT = 0.5;

/**
 * Verbs that carry the question's grammar, not its subject ("what happens if…", "which week do we
 * learn…"): a passage about the subject rarely repeats them, so they do not count against it.
 * Stems, as contentTerms returns them.
 */
const LIGHT_VERBS = new Set(["happen", "get", "got", "learn", "cover", "talk", "discuss", "go", "need", "know", "tell", "find", "say", "mean"].map(stemWord));

/** How much of a part's terms a passage's terms cover: 1 per term present, GATE_RELATED_CREDIT per term present only as a related word. */
function partCoverage(terms: string[], present: Set<string>): number {
  let got = 0;
  for (const t of terms) {
    if (present.has(t)) got += 1;
    else if (relatedStems(t).some((r) => present.has(r))) got += GATE_RELATED_CREDIT;
  }
  return got / terms.length;
}

/**
 * gate: a hit passes when it contains at least `minScore` (0–1) of the content terms of some
 * requested part (a term present only through a related word counts GATE_RELATED_CREDIT).
 * Retrieval order is kept; every hit lands in exactly one list.
 */
export function gate(hits: Hit[], { minScore, parts }: { minScore: number; parts: string[][] }): GateState {
  const wanted = parts
    .map((terms) => {
      const all = [...new Set(terms)];
      const content = all.filter((t) => !LIGHT_VERBS.has(t));
      return content.length > 0 ? content : all;
    })
    .filter((terms) => terms.length > 0);
  const coverage: GateState["coverage"] = [];
  const passed: Hit[] = [];
  const rejected: Hit[] = [];
  for (const hit of hits) {
    const present = new Set(contentTerms(hit.passage.text));
    const best = wanted.reduce((max, terms) => Math.max(max, partCoverage(terms, present)), 0);
    coverage.push({ chunkId: hit.passage.chunkId, coverage: Math.round(best * 1000) / 1000 });
    (best >= minScore && best > 0 ? passed : rejected).push(hit);
  }
  return { minScore, coverage, passed, rejected };
}
