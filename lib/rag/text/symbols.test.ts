import { describe, expect, it } from "vitest";
import { annotate } from "./nlp";
import { symbolsIn } from "./symbols";

const defined = (text: string) => Object.fromEntries(symbolsIn(annotate(text)));

describe("symbolsIn", () => {
  it("reads a symbol written after its quantity's name", () => {
    expect(defined("The thermal resistance R of a wall grows with its thickness.")).toEqual({ R: ["thermal", "resistance"] });
    expect(defined("Porosity n = 0.3 for this gravel.")).toEqual({ n: ["porosity"] });
  });

  it("reads a symbol in parentheses after the name, whether or not its letters spell it", () => {
    expect(defined("The dissociation constant (Kd) measures binding.")).toEqual({ Kd: ["dissociation", "constant"] });
  });

  it("reads a name given after the symbol by a verb of naming", () => {
    expect(defined("Here q = c·m·ΔT, where c is the specific heat of the sample.")).toEqual({ c: ["specific", "heat"] });
  });

  it("reads a name the symbol is set equal to", () => {
    expect(defined("The standard error is SE = s/√n.")).toEqual({ SE: ["standard", "error"] });
  });

  it("reads no symbol into an article, a pronoun or a lowercase word", () => {
    expect(defined("A tutor and a student met; I was there.")).toEqual({});
    expect(defined("The reaction is fast.")).toEqual({});
  });

  it("keeps the first definition of a symbol", () => {
    expect(defined("The flow rate Q is measured. The heat Q is not.")).toEqual({ Q: ["flow", "rate"] });
  });
});
