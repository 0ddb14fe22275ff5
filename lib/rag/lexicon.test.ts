import { describe, expect, it } from "vitest";
import { openClassEntries, REQUEST_VERBS, TYPE_NOUNS } from "./lexicon";
import { annotate } from "./text/nlp";

const isStopword = (word: string) => annotate(word).tokens[0]?.stop === true;

describe("lexicon: open-class entries", () => {
  const entries = openClassEntries();

  it("covers both open-class tables", () => {
    expect(entries.length).toBe(TYPE_NOUNS.size + REQUEST_VERBS.size);
    expect(entries).toContain("deadline");
    expect(entries).toContain("define");
  });

  it("writes every entry in lowercase as a single word", () => {
    for (const word of entries) {
      expect(word).toBe(word.toLowerCase());
      expect(annotate(word).tokens).toHaveLength(1);
    }
  });

  it("has no entry that is a wink stopword", () => {
    expect(entries.filter(isStopword)).toEqual([]);
  });

  it("lists every entry once", () => {
    expect(new Set(entries).size).toBe(entries.length);
  });

});
