import { readFileSync } from "node:fs";
import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { corpusPdfs } from "@/lib/pdf/corpus";
import { extractPdf } from "@/lib/rag/extract";
import { countTokens } from "./tokenizer";

const reference = new Tiktoken(o200k);
/** The library's own count of the whole text, special-token spellings encoded as text. */
const encodeLength = (text: string) => reference.encode(text, [], []).length;

describe("countTokens", () => {
  it("counts what o200k_base encodes, on every page of the course corpus and on arbitrary cuts of it", async () => {
    let checked = 0;
    for (const file of corpusPdfs("the tokenizer test reads")) {
      const { pages } = await extractPdf(new Uint8Array(readFileSync(file)));
      for (const { text } of pages) {
        expect(countTokens(text)).toBe(encodeLength(text));
        // Cuts inside words, spaces and numbers give pieces the whole page never has.
        for (let k = 0; k < 4 && text.length > 10; k++) {
          const start = Math.floor(text.length * (0.05 + 0.23 * k));
          const slice = text.slice(start, start + 37 + k * 91);
          expect(countTokens(slice)).toBe(encodeLength(slice));
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it("counts the same text the same way the second time (remembered pieces change nothing)", () => {
    const text = "Assignment 3 is due on 14 March at 23:59; late work loses 10% per day.\n\n  Indented   spacing\tand 1234567 digits.";
    expect(countTokens(text)).toBe(encodeLength(text));
    expect(countTokens(text)).toBe(encodeLength(text));
    expect(countTokens("")).toBe(0);
  });

  it("counts a special-token spelling in course text as text instead of failing", () => {
    const text = "GPT-2 separates documents with <|endoftext|> and chat turns with <|im_start|>.";
    expect(() => reference.encode(text)).toThrow(/special token/); // what the plain call does
    expect(countTokens(text)).toBe(encodeLength(text));
    expect(countTokens(text)).toBeGreaterThan(countTokens("GPT-2 separates documents with and chat turns with ."));
  });
});
