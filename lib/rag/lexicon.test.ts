import { describe, expect, it } from "vitest";
import { requestedParts } from "./analyze/analyze";
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

  // KNOWN MODULE BUG (reported, not fixed here): "amount" and "name" (TYPE_NOUNS) and "give"
  // (REQUEST_VERBS) are wink stopwords, against the invariant stated on openClassEntries().
  // Turn this back into `it` once the lexicon is fixed.
  it.fails("has no entry that is a wink stopword", () => {
    expect(entries.filter(isStopword)).toEqual([]);
  });

  it("has no stopword entry besides the three reported ones", () => {
    expect([...new Set(entries.filter(isStopword))].sort()).toEqual(["amount", "give", "name"]);
  });

  // KNOWN: "name" is in TYPE_NOUNS and REQUEST_VERBS, so openClassEntries() lists it twice (reported).
  it.fails("lists every entry once", () => {
    expect(new Set(entries).size).toBe(entries.length);
  });

  it("lists no entry twice except 'name', which is both a type noun and a request verb", () => {
    const twice = entries.filter((w, i) => entries.indexOf(w) !== i);
    expect(twice).toEqual(["name"]);
  });

  it("still reads the stop-listed entries as a type noun and a request verb in a question", () => {
    // "amount" is a stop-listed noun that the tagger keeps as content, so it can name the answer type.
    expect(requestedParts("What is the amount of the lab fee?").parts[0].answerType).toBe("count");
    // "give" is not content, yet the sentence still opens a request and "give" is not a focus word.
    const give = requestedParts("Give the opening hours of the gym.").parts;
    expect(give).toHaveLength(1);
    expect(give[0].focus.map((f) => f.lemma)).not.toContain("give");
  });
});
