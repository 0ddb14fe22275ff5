import { describe, expect, it } from "vitest";
import type { GoldenQuestion } from "./metrics";
import {
  answerCorrect,
  citationValid,
  claimSupported,
  divergedStage,
  headline,
  hitAtK,
  passageIsGold,
  precisionAtK,
  recallAtK,
  reciprocalRank,
  setMetrics,
  stageLatency,
  sufficientEvidence,
  type SetRecord,
  type StageFingerprint,
  type StagePassage,
} from "./set-metrics";

const DOC = "Garden Club Handbook";
const passage = (chunkId: string, pdfPage: number, text: string, charStart = 0): StagePassage => ({ chunkId, documentTitle: DOC, pdfPage, text, charStart });

// Page 1: membership; page 2: the shed and the compost; page 3: the whole page is gold in one question.
const A = passage("a", 1, "Membership costs 12 euros a year and includes two seed packets.");
const B = passage("b", 2, "The tool shed opens at 08:00 on Saturdays. Gloves are provided.", 0);
const C = passage("c", 2, "Compost bins stand behind the greenhouse.", 64);
const D = passage("d", 3, "Volunteers water the seedlings every evening in July.");
const X = passage("x", 4, "The club picnic is held in the orchard.");

const question = (over: Partial<GoldenQuestion>): GoldenQuestion => ({ id: "q", course: "garden", question: "?", expect: "answered", kind: "answerable", split: "test", ...over }) as GoldenQuestion;
const cite = (p: StagePassage | null, quote: string, where = p ?? A) => ({ documentTitle: where.documentTitle, pdfPage: where.pdfPage, quote, source: p && { documentTitle: p.documentTitle, pdfPage: p.pdfPage, text: p.text } });

const shedGold = { document: "Garden Club", pdfPage: 2, quote: "The tool shed opens at 08:00 on Saturdays." };

const records: SetRecord[] = [
  {
    // Gold at rank 2 of 4, sent, answered from it.
    golden: question({ id: "r1", pages: [shedGold], answer: "08:00" }),
    status: "answered",
    parts: [{ ask: "when", state: "supported", claims: [{ text: "The tool shed opens at 08:00 on Saturdays.", citations: [cite(B, "The tool shed opens at 08:00 on Saturdays.")] }] }],
    k: 4,
    retrieved: [A, B, C, D],
    sent: [B],
    topScore: 0.9,
    timings: { retrieve: 10, generate: 30 },
  },
  {
    // Two gold passages (a quote on page 2, all of page 3), both retrieved, neither sent; the answer cites page 1.
    golden: question({ id: "r2", kind: "two-part", expect: "partial", pages: [shedGold, { document: "Handbook", pdfPage: 3 }] }),
    status: "partial",
    parts: [
      { ask: "cost", state: "supported", claims: [{ text: "Membership costs 12 euros a year and two free tools.", citations: [cite(A, "Membership costs 12 euros a year")] }] },
      { ask: "other", state: "missing", claims: [] },
    ],
    k: 4,
    retrieved: [D, A, B, X],
    sent: [A],
    topScore: 0.6,
    timings: { retrieve: 20 },
  },
  {
    // Nothing relevant among the two retrieved (k = 4): refused.
    golden: question({ id: "r3", pages: [{ document: DOC, pdfPage: 4, quote: "picnic" }] }),
    status: "insufficient_evidence",
    parts: [],
    k: 4,
    retrieved: [A, C],
    sent: [],
    topScore: 0.1,
    timings: { retrieve: 30 },
  },
  { golden: question({ id: "r4", kind: "unanswerable", expect: "insufficient_evidence" }), status: "insufficient_evidence", parts: [], k: 4, retrieved: [A], sent: [], topScore: 0.05, timings: {} },
  {
    // Should have declined; its citation names a passage that does not exist.
    golden: question({ id: "r5", kind: "unanswerable", expect: "insufficient_evidence" }),
    status: "answered",
    parts: [{ ask: "x", state: "supported", claims: [{ text: "Compost bins stand behind the greenhouse.", citations: [cite(null, "Compost bins stand behind the greenhouse.", C)] }] }],
    k: 4,
    retrieved: [C],
    sent: [C],
    topScore: 0.4,
    timings: {},
  },
];
const [r1, r2, r3] = records;

describe("gold passages", () => {
  it("match on the page when no text was picked, by offsets when known, by containment otherwise", () => {
    expect(passageIsGold(D, { document: "handbook", pdfPage: 3 })).toBe(true);
    expect(passageIsGold(D, { document: "handbook", pdfPage: 2 })).toBe(false);
    expect(passageIsGold(B, shedGold)).toBe(true);
    expect(passageIsGold(C, shedGold)).toBe(false);
    // C covers offsets 64..105 of page 2.
    expect(passageIsGold(C, { document: DOC, pdfPage: 2, quote: "whatever", charStart: 100, charEnd: 140 })).toBe(true);
    expect(passageIsGold(C, { document: DOC, pdfPage: 2, quote: "whatever", charStart: 0, charEnd: 64 })).toBe(false);
    // A smaller chunk of a picked passage is still the gold passage.
    expect(passageIsGold(passage("b1", 2, "Gloves are provided."), { document: DOC, pdfPage: 2, quote: B.text })).toBe(true);
  });
});

describe("per-question retrieval metrics, by hand", () => {
  it("Hit@k, reciprocal rank, Precision@k, Recall@k and sufficient evidence", () => {
    expect([hitAtK(r1), reciprocalRank(r1), precisionAtK(r1), recallAtK(r1), sufficientEvidence(r1)]).toEqual([1, 0.5, 0.25, 1, 1]);
    expect([hitAtK(r2), reciprocalRank(r2), precisionAtK(r2), recallAtK(r2), sufficientEvidence(r2)]).toEqual([1, 1, 0.5, 1, 0]);
    // Precision divides by the k asked for, not by the two passages found.
    expect([hitAtK(r3), reciprocalRank(r3), precisionAtK(r3), recallAtK(r3), sufficientEvidence(r3)]).toEqual([0, 0, 0, 0, 0]);
  });

  it("recall counts each gold passage once, whichever passage covers it", () => {
    const one = { ...r2, retrieved: [A, B] };
    expect(recallAtK(one)).toBe(0.5);
    expect(recallAtK({ ...r2, k: 1 })).toBe(0.5);
  });

  it("an answer is correct when it cites the gold evidence and contains the expected answer", () => {
    expect(answerCorrect(r1)).toBe(true);
    expect(answerCorrect({ ...r1, golden: { ...r1.golden, answer: "09:00" } })).toBe(false);
    expect(answerCorrect(r2)).toBe(false);
    expect(answerCorrect(r3)).toBe(false);
  });

  it("a citation is valid when its passage exists on its page and holds the quote", () => {
    expect(citationValid(cite(B, "opens at 08:00"))).toBe(true);
    expect(citationValid(cite(B, "opens at 09:00"))).toBe(false);
    expect(citationValid(cite(null, "anything", B))).toBe(false);
    expect(citationValid({ ...cite(B, "opens at 08:00"), pdfPage: 3 })).toBe(false);
  });

  it("a claim is faithful when its quotes carry its key terms", () => {
    expect(claimSupported(r1.parts[0].claims[0])).toBe(true);
    // "free" and "tool" are not in the quote: it carries 4 of the claim's 6 key terms (membership, cost, euro, year, free, tool), under 0.8.
    expect(claimSupported(r2.parts[0].claims[0])).toBe(false);
  });
});

describe("the run's metrics, by hand", () => {
  const m = setMetrics(records);

  it("averages retrieval over the three questions with gold passages", () => {
    expect(m.hitAtK).toEqual({ value: 2 / 3, n: 3 });
    expect(m.mrr).toEqual({ value: 0.5, n: 3 });
    expect(m.precisionAtK).toEqual({ value: 0.25, n: 3 });
    expect(m.recallAtK).toEqual({ value: 2 / 3, n: 3 });
    expect(m.sufficientEvidenceRecall).toEqual({ value: 1 / 3, n: 3 });
  });

  it("counts citations, correctness, faithfulness, refusals and abstentions", () => {
    expect(m.citationValidity).toEqual({ hits: 2, n: 3, rate: 2 / 3 });
    expect(m.answerCorrectness).toEqual({ hits: 1, n: 3, rate: 1 / 3 });
    expect(m.faithfulness).toEqual({ hits: 2, n: 3, rate: 2 / 3 });
    expect(m.unhelpfulRefusalRate).toEqual({ hits: 1, n: 3, rate: 1 / 3 });
    expect(m.abstentionRate).toEqual({ hits: 1, n: 2, rate: 0.5 });
    expect(m.judgedCorrectness.rate).toBeNull();
  });

  it("counts a model judge's verdicts when there are any", () => {
    const judged = setMetrics([{ ...r1, judge: { correct: true, supportedClaims: 1, claims: 1 } }, { ...r2, judge: { correct: false, supportedClaims: 0, claims: 1 } }, r3]);
    expect(judged.judgedCorrectness).toEqual({ hits: 1, n: 2, rate: 0.5 });
    expect(judged.judgedFaithfulness).toEqual({ hits: 1, n: 2, rate: 0.5 });
  });

  it("reports each stage's mean and 95th percentile time", () => {
    expect(stageLatency(records)).toEqual({ retrieve: { meanMs: 20, p95Ms: 30, n: 3 }, generate: { meanMs: 30, p95Ms: 30, n: 1 } });
  });

  it("says null, not 0, when nothing was eligible", () => {
    const none = headline(setMetrics([records[3]]));
    expect(none.hitAtK).toBeNull();
    expect(none.abstentionRate).toBe(1);
    expect(none.unhelpfulRefusalRate).toBeNull();
  });
});

describe("where two runs of a question parted", () => {
  const base: StageFingerprint = { standalone: "q", retrieved: ["a", "b"], passed: ["a", "b"], sent: ["a"], claims: ["x"], status: "answered" };
  it("names the first stage whose output differs", () => {
    expect(divergedStage(base, base)).toBeNull();
    expect(divergedStage(base, { ...base, standalone: "r" })).toBe("analyze");
    expect(divergedStage(base, { ...base, retrieved: ["a"], passed: ["a"] })).toBe("retrieve");
    expect(divergedStage(base, { ...base, passed: ["b", "a"] })).toBeNull();
    expect(divergedStage(base, { ...base, passed: ["a"], sent: [] })).toBe("gate");
    expect(divergedStage(base, { ...base, sent: ["a", "b"] })).toBe("pack");
    expect(divergedStage(base, { ...base, claims: [], status: "insufficient_evidence" })).toBe("generate");
    expect(divergedStage(base, { ...base, status: "partial" })).toBe("decide");
  });
});
