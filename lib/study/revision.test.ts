import { describe, expect, it } from "vitest";
import { checkQuote } from "./revision";

describe("checkQuote", () => {
  const oldQuote = "Compost heaps must be turned every 14 days in summer.";
  it("leaves a card alone while its quote still occurs verbatim in the current text", () => {
    expect(checkQuote(oldQuote, [{ pdfPage: 2, text: `Intro.\n${oldQuote}\nMore.` }])).toEqual({ changed: false });
  });

  it("flags a changed quote and offers the new passage that resembles it", () => {
    const pages = [
      { pdfPage: 1, text: "Seeds are stored in a dry tin." },
      { pdfPage: 3, text: "Compost heaps must be turned every 21 days in summer. Bees visit the borage." },
    ];
    expect(checkQuote(oldQuote, pages)).toEqual({ changed: true, newPassage: { pdfPage: 3, text: "Compost heaps must be turned every 21 days in summer." } });
  });

  it("flags a removed quote without inventing a passage", () => {
    expect(checkQuote(oldQuote, [{ pdfPage: 1, text: "Bees visit the borage in June." }])).toEqual({ changed: true, newPassage: null });
  });
});
