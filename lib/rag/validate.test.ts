import { describe, expect, it } from "vitest";
import { retryMessage } from "./prompts";
import { makeLabelled } from "./fixtures.mock";
import { normalizeInline } from "./normalize";
import type { DraftClaim, DraftPart, GenerateState, LabelledPassage } from "./types";
import { isPassageNotNormalizedError, validate } from "./validate";

// Seed 000's fixture: author-written course-note text on PDF page 3.
const dropoutText = "During training, dropout randomly sets some activations to zero. It can reduce overfitting.";
const s1 = makeLabelled("S1", dropoutText, { chunkId: "regularization-003", documentTitle: "regularization-notes", revisionNumber: 2, pdfPage: 3 });
const registry = (...passages: LabelledPassage[]) => new Map(passages.map((p) => [p.label, p]));
const goodQuote = "During training, dropout randomly sets some activations to zero.";

const claim = (text: string, ...evidence: Array<[string, string]>): DraftClaim => ({ text, evidence: evidence.map(([sourceId, quote]) => ({ sourceId, quote })) });
const supported = (...claims: DraftClaim[]): DraftPart => ({ ask: "what does dropout do", state: "supported", claims });
const generated = (...parts: DraftPart[]): GenerateState => ({ parts, raw: "" });

function resolvedOrFail(state: ReturnType<typeof validate>) {
  if (!state.ok) throw new Error(`expected ok, got ${JSON.stringify(state.problems)}`);
  return state.parts;
}

function problemsOf(state: ReturnType<typeof validate>) {
  if (state.ok) throw new Error("expected problems");
  return state.problems;
}

describe("validate", () => {
  it("resolves a valid S1 citation with the trusted source metadata", () => {
    const parts = resolvedOrFail(validate(generated(supported(claim("During training, dropout randomly zeros some activations.", ["S1", goodQuote]))), registry(s1)));
    expect(parts[0].claims[0].citations).toEqual([
      {
        label: "S1",
        chunkId: "regularization-003",
        revisionId: s1.revisionId,
        documentId: s1.documentId,
        documentTitle: "regularization-notes",
        revision: 2,
        pdfPage: 3,
        pageLabel: null,
        quote: goodQuote,
        charStart: 0,
        charEnd: goodQuote.length,
      },
    ]);
  });

  it("accepts a false claim carrying a real quote: a valid pointer is not proof of support", () => {
    const state = validate(generated(supported(claim("Dropout guarantees better test accuracy.", ["S1", goodQuote]))), registry(s1));
    expect(state.ok).toBe(true);
  });

  it("rejects an invented source id", () => {
    const problems = problemsOf(validate(generated(supported(claim("Dropout zeros activations.", ["S9", goodQuote]))), registry(s1)));
    expect(problems).toEqual([expect.objectContaining({ kind: "unknown_source_id", sourceId: "S9", partIndex: 0, claimIndex: 0 })]);
  });

  it("rejects an edited quote and an empty one", () => {
    const edited = problemsOf(validate(generated(supported(claim("Dropout zeros activations.", ["S1", "During training, dropout sets all activations to zero."]))), registry(s1)));
    expect(edited.map((p) => p.kind)).toEqual(["quote_not_in_passage"]);
    const empty = problemsOf(validate(generated(supported(claim("Dropout zeros activations.", ["S1", "  \n "]))), registry(s1)));
    expect(empty.map((p) => p.kind)).toEqual(["quote_not_in_passage"]);
  });

  it("rejects a claim without evidence", () => {
    const problems = problemsOf(validate(generated(supported(claim("Dropout reduces overfitting."))), registry(s1)));
    expect(problems).toEqual([expect.objectContaining({ kind: "missing_evidence", partIndex: 0, claimIndex: 0 })]);
  });

  it("collects every problem instead of stopping at the first, and withholds the valid claims too", () => {
    const state = validate(
      generated(
        supported(claim("Dropout zeros activations.", ["S1", goodQuote]), claim("It reduces overfitting.")),
        supported(claim("Dropout zeros activations.", ["S1", goodQuote], ["S9", "made up"])),
      ),
      registry(s1),
    );
    expect(problemsOf(state).map((p) => [p.kind, p.partIndex, p.claimIndex])).toEqual([
      ["missing_evidence", 0, 1],
      ["unknown_source_id", 1, 0],
    ]);
  });

  it("matches a quote that differs from the passage only in whitespace or Unicode form, returning the stored excerpt", () => {
    const wrapped = makeLabelled("S1", "Full fine-tuning of a model\nupdates its weights.\n\nPrompting does not.");
    const parts = resolvedOrFail(
      validate(generated(supported(claim("Fine-tuning updates weights.", ["S1", "  \uFB01ne-tuning of a  model updates\tits weights. "]))), registry(wrapped)),
    );
    expect(parts[0].claims[0].citations[0]).toMatchObject({ quote: "fine-tuning of a model\nupdates its weights.", charStart: 5 });
  });

  it("maps quote offsets back exactly into the stored page text", () => {
    const pageText = "Week 3 notes.\n\nRegularisation\nDuring training, dropout randomly sets some\nactivations to zero.\n\nIt can reduce overfitting.";
    const charStart = pageText.indexOf("Regularisation");
    const passage = makeLabelled("S1", pageText.slice(charStart), { charStart });
    const quotes = ["dropout randomly sets some activations to zero. It can reduce overfitting.", "Regularisation During", "overfitting."];
    const parts = resolvedOrFail(validate(generated(supported(...quotes.map((q) => claim(q, ["S1", q])))), registry(passage)));
    parts[0].claims.forEach(({ citations: [c] }, i) => {
      expect(pageText.slice(c.charStart, c.charEnd)).toBe(c.quote);
      expect(normalizeInline(c.quote)).toBe(quotes[i]);
    });
    expect(pageText.slice(parts[0].claims[0].citations[0].charStart, parts[0].claims[0].citations[0].charEnd)).toBe(
      "dropout randomly sets some\nactivations to zero.\n\nIt can reduce overfitting.",
    );
  });

  it("keeps a missing part claim-free and flags claims under it", () => {
    const missing: DraftPart = { ask: "when is assignment 2 due", state: "missing", claims: [] };
    const parts = resolvedOrFail(validate(generated(supported(claim("Dropout zeros activations.", ["S1", goodQuote])), missing), registry(s1)));
    expect(parts[1]).toEqual({ ask: "when is assignment 2 due", state: "missing", claims: [] });

    const withClaim = { ...missing, claims: [claim("It is due on Friday.", ["S1", goodQuote])] };
    expect(problemsOf(validate(generated(withClaim), registry(s1)))).toEqual([expect.objectContaining({ kind: "part_state_mismatch", partIndex: 0, claimIndex: 0 })]);
  });

  it("flags a supported or conflicting part that makes no claims", () => {
    const empty: DraftPart = { ask: "what is the late penalty", state: "conflicting", claims: [] };
    expect(problemsOf(validate(generated(empty), registry(s1)))).toEqual([expect.objectContaining({ kind: "part_state_mismatch", partIndex: 0, claimIndex: -1 })]);
  });

  it("refuses to map offsets into a passage that skipped normalisation", () => {
    const raw = makeLabelled("S1", "Dropout is a regularisation technique \uFB01rst used in 2012.");
    let thrown: unknown;
    try {
      validate(generated(supported(claim("Dropout regularises.", ["S1", "Dropout is a regularisation technique"]))), registry(raw));
    } catch (e) {
      thrown = e;
    }
    expect(isPassageNotNormalizedError(thrown)).toBe(true);
  });

  it("turns problems into a retry message that names each one", () => {
    const problems = problemsOf(
      validate(generated(supported(claim("A.", ["S9", goodQuote]), claim("B.")), { ask: "x", state: "supported", claims: [] }), registry(s1)),
    );
    const message = retryMessage(problems);
    expect(message).toContain("Part 1, claim 1 (unknown_source_id): S9 is not one of the passages");
    expect(message).toContain("Part 1, claim 2 (missing_evidence)");
    expect(message).toContain("Part 2 (part_state_mismatch)");
  });
});
