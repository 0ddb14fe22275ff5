import { describe, expect, it } from "vitest";
import { areRelated, classesOf, closedCompoundsOf, isCommonWord, isCompoundKindOf, isTimeNoun, classifierOf, relatedWords } from "./wordnet";

describe("relatedWords", () => {
  it("gives synonyms from the lemma's frequent senses", () => {
    expect(relatedWords("purchase")).toContain("buy");
    expect(relatedWords("buy")).toContain("purchase");
    expect(relatedWords("exam")).toEqual(new Set(["examination", "test"]));
  });

  it("gives derivationally related forms, noun to verb and verb to noun", () => {
    expect(relatedWords("decide")).toContain("decision");
    expect(relatedWords("decision")).toContain("decide");
    expect(relatedWords("purchase")).toContain("purchaser");
    expect(relatedWords("happy")).toContain("happiness");
  });

  it("relates an '-able' adjective WordNet does not list to its verb, and leaves listed words alone", () => {
    expect(relatedWords("submittable")).toEqual(new Set(["submit"]));
    expect(relatedWords("unzippable")).toEqual(new Set(["unzip"]));
    expect(relatedWords("rebootable")).toEqual(new Set(["reboot"]));
    expect(relatedWords("table")).not.toContain("t");
    // No verb under it: nothing.
    expect(relatedWords("flurbable").size).toBe(0);
  });

  it("gives an adjective's pertainym, which WordNet records only from the adjective", () => {
    expect(relatedWords("solar")).toEqual(new Set(["sun"]));
    expect(relatedWords("sun")).not.toContain("solar");
    expect(relatedWords("dental")).toContain("tooth");
  });

  it("takes only the first senses: a rare sense's synonyms are left out", () => {
    // "attend" in its 4th verb sense is {serve, attend_to, wait_on, attend, assist}.
    expect(relatedWords("attend")).not.toContain("assist");
    expect(relatedWords("attend")).not.toContain("serve");
    // Senses never seen in the tagged corpus are skipped when others were seen: verb "table" = postpone.
    expect(relatedWords("table")).not.toContain("postpone");
  });

  it("never contains the lemma itself or a multi-word collocation, and is lowercase", () => {
    for (const word of ["attend", "permit", "begin", "cost", "buy", "decide", "student", "grade", "late"]) {
      const related = [...relatedWords(word)];
      expect(related).not.toContain(word);
      expect(related.filter((w) => w.includes("_") || w.includes(" ") || w !== w.toLowerCase())).toEqual([]);
    }
    // "attend" shares its first sense with the collocation "go_to".
    expect(relatedWords("attend")).not.toContain("go_to");
  });

  it("accepts any letter case and caches the result", () => {
    expect(relatedWords("Purchase")).toEqual(relatedWords("purchase"));
    expect(relatedWords("decide")).toBe(relatedWords("decide"));
  });

  it("gives an empty set for unknown words and empty input", () => {
    expect(relatedWords("qwzxvbn").size).toBe(0);
    expect(relatedWords("").size).toBe(0);
    expect(relatedWords("   ").size).toBe(0);
  });
});

describe("areRelated", () => {
  it("is true for synonyms and derivations, in either order", () => {
    expect(areRelated("buy", "purchase")).toBe(true);
    expect(areRelated("purchase", "buy")).toBe(true);
    expect(areRelated("decision", "decide")).toBe(true);
    expect(areRelated("decide", "decision")).toBe(true);
  });

  it("is symmetric even where WordNet records the link in one direction only", () => {
    expect(areRelated("solar", "sun")).toBe(true);
    expect(areRelated("sun", "solar")).toBe(true);
  });

  it("does not relate a word to itself", () => {
    expect(areRelated("buy", "buy")).toBe(false);
    expect(areRelated("Buy", "buy")).toBe(false);
  });

  it("is false for unrelated common words and unknown words", () => {
    expect(areRelated("cat", "table")).toBe(false);
    expect(areRelated("buy", "sun")).toBe(false);
    expect(areRelated("decide", "happy")).toBe(false);
    expect(areRelated("qwzxvbn", "buy")).toBe(false);
  });
});

describe("isCommonWord", () => {
  it("is true for a word WordNet writes in lower case, in any case given", () => {
    expect(isCommonWord("information")).toBe(true);
    expect(isCommonWord("Information")).toBe(true);
    expect(isCommonWord("workshop")).toBe(true);
  });

  it("is false for a word WordNet knows only as a name, and for a word it does not know", () => {
    expect(isCommonWord("Einstein")).toBe(false);
    expect(isCommonWord("Petrenkova")).toBe(false);
    expect(isCommonWord("")).toBe(false);
  });
});

describe("isTimeNoun", () => {
  it("is true for a noun whose first sense is filed under noun.time, false for places, things and unknown words", () => {
    for (const w of ["fortnight", "evening", "weekend", "Semester"]) expect(isTimeNoun(w), w).toBe(true);
    for (const w of ["greenhouse", "shelf", "harbour", "xqzv"]) expect(isTimeNoun(w), w).toBe(false);
  });
});

describe("closed compounds", () => {
  it("knows a closed compound as a kind of its last word only where WordNet says so", () => {
    expect(isCompoundKindOf("bedroom", "room")).toBe(true);
    expect(isCompoundKindOf("storybook", "book")).toBe(true);
    // Written so, but no kind of it: a mushroom is no room.
    expect(isCompoundKindOf("mushroom", "room")).toBe(false);
    expect(isCompoundKindOf("room", "room")).toBe(false);
    expect(isCompoundKindOf("bed room", "room")).toBe(false);
  });

  it("lists the compounds that are kinds of a noun, for search", () => {
    const rooms = closedCompoundsOf("room");
    expect(rooms).toContain("bedroom");
    expect(rooms).not.toContain("mushroom");
    expect(closedCompoundsOf("Room")).toBe(rooms);
    expect(closedCompoundsOf("zzqx")).toEqual([]);
  });

  it("gives every class a noun's first senses fall under, however far up, through instances too", () => {
    expect(classesOf("granary").has("facility")).toBe(true);
    expect([...classesOf("Oslo")]).toEqual(expect.arrayContaining(["city", "location"]));
    expect(classesOf("teaspoon").has("location")).toBe(false);
    expect(classesOf("Srikrishnan").size).toBe(0);
  });

  it("tells a noun naming a kind of thing, or a word for one, from a noun naming a thing", () => {
    for (const w of ["kind", "sort", "category", "genre", "species", "form"]) expect(classifierOf(w), w).toBe("kind");
    for (const w of ["name", "term", "acronym"]) expect(classifierOf(w), w).toBe("word");
    for (const w of ["glaze", "kiln", "problem", "answer", "method", "Srikrishnan"]) expect(classifierOf(w), w).toBeUndefined();
  });
});
