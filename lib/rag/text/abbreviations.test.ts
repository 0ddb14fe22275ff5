import { describe, expect, it } from "vitest";
import { abbreviationsIn } from "./abbreviations";

describe("abbreviationsIn", () => {
  it("finds a long form whose words the short form's letters start", () => {
    const found = abbreviationsIn("Soil moisture is logged by a Time Domain Reflectometer (TDR) at each plot.");
    expect(found.get("TDR")).toBe("Time Domain Reflectometer");
  });

  it("takes the shortest long form that still covers every letter, not the words before it", () => {
    const found = abbreviationsIn("We then apply the fast Fourier transform (FFT) to each frame.");
    expect(found.get("FFT")).toBe("fast Fourier transform");
  });

  it("lets letters come from inside words and skips signs in the short form", () => {
    expect(abbreviationsIn("Each node runs a k-nearest neighbours (k-NN) vote.").get("k-NN")).toBe("k-nearest neighbours");
    expect(abbreviationsIn("The Hamming Weight (HW) of a byte counts its ones.").get("HW")).toBe("Hamming Weight");
  });

  it("ignores parentheses that are not definitions", () => {
    expect(abbreviationsIn("The lab runs twice (see the schedule) each term.").size).toBe(0);
    expect(abbreviationsIn("Marks are out of 100 (2024) this year.").size).toBe(0);
    // The first letter must start a word: "xylophone (XY)" is one word, not a definition.
    expect(abbreviationsIn("She played the xylophone (XY) again.").size).toBe(0);
  });

  it("does not reach back past the end of a sentence", () => {
    expect(abbreviationsIn("Models are tested. Results (R) follow.").size).toBe(0);
  });
});
