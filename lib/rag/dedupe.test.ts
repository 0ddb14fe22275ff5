import { describe, expect, it } from "vitest";
import { analyzeQuestion } from "./analyze/analyze";
import { distinctAnswerParts, distinctParts } from "./dedupe";
import type { AnswerClaim } from "./types";

const claim = (text: string, chunkId = "c1", quote = text): AnswerClaim => ({
  text,
  citations: [{ label: "S1", chunkId, revisionId: "r1", documentTitle: "Lab handbook", revision: 1, pdfPage: 2, quote, uploadedAt: "2026-01-01", context: quote, contextStart: 0 } as AnswerClaim["citations"][number]],
});

describe("distinct parts of a question", () => {
  it("asks a question repeated in any case or punctuation once", () => {
    const q = ["Where is the chemistry lab held?", "where is the Chemistry lab held", "WHERE IS THE CHEMISTRY LAB HELD?!"].join(" ").repeat(20);
    const analysis = analyzeQuestion(q, []);
    expect(analysis.parts.length).toBeGreaterThan(1); // the analysis reads every copy
    expect(distinctParts(analysis).parts.map((p) => p.ask)).toEqual([analysis.parts[0].ask]);
  });

  it("keeps parts that differ, in the order asked", () => {
    const q = "Who marks the lab reports? Where is the chemistry lab held? Who marks the lab reports?";
    expect(distinctParts(analyzeQuestion(q, [])).parts.map((p) => p.ask.toLowerCase())).toEqual(["who marks the lab reports", "where is the chemistry lab held"]);
  });

  it("keeps parts that name different identifiers", () => {
    const q = "When is Lab 3 due? When is Lab 4 due?";
    expect(distinctParts(analyzeQuestion(q, [])).parts).toHaveLength(2);
  });
});

describe("distinct claims of an answer", () => {
  it("merges parts with the same wording and shows a repeated claim once", () => {
    const a = claim("The lab is held in room B12.");
    const parts = distinctAnswerParts([
      { ask: "Where is the lab held", state: "supported", claims: [a, a] },
      { ask: "where is the lab held?", state: "supported", claims: [claim("The lab is held in room B12.")] },
      { ask: "Who marks it", state: "supported", claims: [a] },
    ]);
    expect(parts.map((p) => [p.ask, p.claims.length])).toEqual([["Where is the lab held", 1], ["Who marks it", 1]]);
  });

  it("keeps the same words quoting different passages", () => {
    const parts = distinctAnswerParts([{ ask: "Where", state: "supported", claims: [claim("Room B12.", "c1"), claim("Room B12.", "c2")] }]);
    expect(parts[0].claims).toHaveLength(2);
  });

  it("keeps a merged part's warning that claims were withheld", () => {
    const parts = distinctAnswerParts([
      { ask: "Where", state: "supported", claims: [claim("Room B12.")] },
      { ask: "where", state: "validation_failed", claims: [] },
    ]);
    expect(parts).toEqual([{ ask: "Where", state: "validation_failed", claims: [claim("Room B12.")] }]);
  });
});
