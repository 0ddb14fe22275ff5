import { describe, expect, it } from "vitest";
import { decide, isUnknownPartStateError, type StageFailure } from "./decide";
import { answerStatuses, type AnswerStatus } from "./types";

const parts = (...states: string[]) => states.map((state) => ({ state }));

describe("decide", () => {
  it("routes evidence as seed 000's route_evidence does", () => {
    const table: Array<[string[], AnswerStatus]> = [
      [["supported", "missing"], "partial"],
      [["conflicting"], "conflicting_evidence"],
      [["conflicting", "missing", "supported"], "conflicting_evidence"],
      [["supported"], "answered"],
      [["supported", "supported"], "answered"],
      [["missing"], "insufficient_evidence"],
      [["missing", "missing"], "insufficient_evidence"],
      [[], "insufficient_evidence"],
      [["supported", "validation_failed"], "partial"],
      [["validation_failed"], "validation_failed"],
      [["validation_failed", "missing"], "validation_failed"],
    ];
    for (const [states, status] of table) expect(decide({ parts: parts(...states) }).status, states.join(",")).toBe(status);
    expect(decide({}).status).toBe("insufficient_evidence");
  });

  it("lets a stage failure outrank any evidence", () => {
    const failures: Array<[StageFailure, AnswerStatus]> = [
      ["retrieval", "retrieval_error"],
      ["generation", "generation_error"],
      ["validation", "validation_failed"],
      ["too_long", "question_too_long"],
      ["cancelled", "cancelled"],
    ];
    for (const [failure, status] of failures) {
      expect(decide({ failure }).status).toBe(status);
      expect(decide({ parts: parts("supported"), failure }).status).toBe(status);
    }
  });

  it("throws a named error for an unknown part state", () => {
    let thrown: unknown;
    try {
      decide({ parts: parts("supported", "probably") });
    } catch (e) {
      thrown = e;
    }
    expect(isUnknownPartStateError(thrown)).toBe(true);
    expect((thrown as Error).message).toContain("probably");
  });

  it("gives an answer no explanation, and every other status its own explanation and next step", () => {
    const inputs: Array<Parameters<typeof decide>[0]> = [
      { parts: parts("supported") },
      { parts: parts("supported", "missing") },
      { parts: parts("missing") },
      { parts: parts("conflicting") },
      { failure: "retrieval" },
      { failure: "validation" },
      { failure: "generation" },
      { failure: "too_long" },
      { failure: "cancelled" },
    ];
    const decided = inputs.map((input) => decide(input));
    expect(decided.map((d) => d.status).sort()).toEqual([...answerStatuses].sort());

    const [answered, ...others] = decided;
    expect(answered).toEqual({ status: "answered", message: null, nextStep: null });
    for (const d of others) {
      expect(d.message?.length, d.status).toBeGreaterThan(0);
      expect(d.nextStep?.length, d.status).toBeGreaterThan(0);
    }
    expect(new Set(others.map((d) => d.message)).size).toBe(others.length);
    expect(new Set(others.map((d) => d.nextStep)).size).toBe(others.length);
  });

  it("separates missing evidence from a failed lookup", () => {
    expect(decide({ parts: [] })).toMatchObject({
      message: "I could not find supporting passages in the indexed notes.",
      nextStep: "Ask your instructor to upload the material, or name the week or document.",
    });
    expect(decide({ failure: "retrieval" }).message).toContain("says nothing about what the notes contain");
  });
});
