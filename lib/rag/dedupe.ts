import type { QuestionAnalysis, RequestedPart } from "./analyze/analyze";
import type { AnswerClaim, AnswerPart } from "./types";

/**
 * A question that repeats itself ("When is Lab 3 due? When is lab 3 due?") asks once: the analysis
 * keeps every clause it reads as a part, so parts that ask for the same thing — the same answer
 * type, identifiers and search words, whatever the case or punctuation — are kept once, in order of
 * first appearance. Without this each copy was retrieved, answered and shown again.
 */
export function distinctParts(analysis: QuestionAnalysis): QuestionAnalysis {
  const seen = new Set<string>();
  const parts = analysis.parts.filter((p) => {
    const key = partKey(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return parts.length === analysis.parts.length ? analysis : { ...analysis, parts };
}

function partKey(p: RequestedPart): string {
  const words = [...new Set(p.searchTerms.map((t) => t.toLowerCase()))].sort();
  const ids = [...new Set(p.required.map((r) => `${r.noun}=${r.id}`.toLowerCase()))].sort();
  return JSON.stringify([p.answerType, ids, words]);
}

/** The same statement citing the same quotes: a repeat, whichever part it came under. */
export function claimKey(claim: AnswerClaim): string {
  const text = claim.text.normalize("NFC").replace(/\s+/g, " ").trim().toLowerCase();
  return JSON.stringify([text, claim.citations.map((c) => [c.chunkId, c.quote]).sort()]);
}

/** A part's wording without case, spacing or punctuation. */
export const askKey = (ask: string) => ask.normalize("NFC").replace(/[\s\p{P}]+/gu, " ").trim().toLowerCase();

/**
 * An answer's parts with repeats removed: parts with the same wording (a generator that answered a
 * part twice) become one, and a claim repeated within a part is shown once. A claim that answers
 * two different parts stays under both: each part must show its support.
 */
export function distinctAnswerParts(parts: AnswerPart[]): AnswerPart[] {
  const merged = new Map<string, AnswerPart>();
  for (const part of parts) {
    const key = askKey(part.ask);
    const into = merged.get(key);
    if (!into) merged.set(key, { ...part, claims: [...part.claims] });
    else {
      into.claims.push(...part.claims);
      // A part some copy of which lost claims to failed citations says so.
      if (part.state === "validation_failed" || (into.state === "missing" && part.state !== "missing")) into.state = part.state;
    }
  }
  return [...merged.values()].map((p) => {
    const seen = new Set<string>();
    return { ...p, claims: p.claims.filter((c) => !seen.has(claimKey(c)) && Boolean(seen.add(claimKey(c)))) };
  });
}
