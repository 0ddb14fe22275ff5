import { describe, expect, it } from "vitest";
import { annotate, contentLemmas } from "./nlp";

const byText = (text: string, word: string) => {
  const token = annotate(text).tokens.find((t) => t.text === word);
  if (!token) throw new Error(`no token ${word} in ${text}`);
  return token;
};

describe("annotate: offsets", () => {
  // A PDF bullet glyph (private use), curly quotes, and a line break.
  const text = "\uF0B7 Bring your “lab notebook” to every session.\nThe ‘final’ draft goes online.";

  it("gives every token exact offsets into the text, glyphs, quotes and newline included", () => {
    const { tokens } = annotate(text);
    expect(tokens.length).toBeGreaterThan(10);
    for (const t of tokens) expect(text.slice(t.start, t.end)).toBe(t.text);
    // Offsets only move forward.
    tokens.slice(1).forEach((t, i) => expect(t.start).toBeGreaterThanOrEqual(tokens[i].end));
  });

  it("finds the words after the skipped glyph where they are written", () => {
    expect(byText(text, "Bring")).toMatchObject({ start: 2, end: 7 });
    expect(byText(text, "notebook")).toMatchObject({ start: 18, end: 26 });
    expect(byText(text, "draft")).toMatchObject({ start: 58, end: 63 });
    expect(byText(text, "\n").pos).toBe("SPACE");
  });

  it("never counts the bullet glyph or punctuation as content", () => {
    const { tokens } = annotate(text);
    expect(tokens[0].text).toBe("\uF0B7");
    expect(tokens[0].content).toBe(false);
    expect(byText(text, "“").content).toBe(false);
    expect(contentLemmas(text)).toEqual(["bring", "lab", "notebook", "session", "final", "draft", "online"]);
  });
});

describe("annotate: lemmas", () => {
  it("lemmatises a plural noun to its singular", () => {
    expect(byText("The essays are marked by two readers.", "essays").lemma).toBe("essay");
    expect(byText("The essays are marked by two readers.", "readers").lemma).toBe("reader");
  });

  it("lemmatises a plural the tagger leaves as written when WordNet knows only its singular", () => {
    expect(byText("The pool opens on sundays.", "sundays").lemma).toBe("sunday");
    expect(byText("Drop-in hours run Tuesdays.", "Tuesdays").lemma).toBe("tuesday");
    // A word WordNet lists with its s is its own base form.
    expect(byText("Optics uses a lens.", "lens").lemma).toBe("lens");
  });

  it("lemmatises a Title-Case heading word tagged as a proper noun", () => {
    const hours = byText("Office Hours are held in the annex.", "Hours");
    expect(hours.pos).toBe("PROPN");
    expect(hours.lemma).toBe("hour");
    expect(annotate("Hours").tokens[0].lemma).toBe("hour");
  });

  it("lowercases lemmas", () => {
    expect(byText("Office Hours are held in the annex.", "Office").lemma).toBe("office");
  });

  it("folds accents, so a word typed without them matches", () => {
    expect(byText("The café opens at eight.", "café").lemma).toBe("cafe");
    expect(byText("A naïve estimator is biased.", "naïve").lemma).toBe("naive");
    expect(byText("Ask Zoë about the lab.", "Zoë").text).toBe("Zoë");
  });

  it("lemmatises an initialism's plural to the initialism ('TAs' → 'ta')", () => {
    expect(byText("Ask the TAs before Friday.", "TAs").lemma).toBe(byText("The TA marks it.", "TA").lemma);
    expect(byText("Export the PDFs first.", "PDFs").lemma).toBe("pdf");
  });

  it("folds a hyphen inside a word, so the closed spelling matches", () => {
    expect(byText("Run the re-weighting step first.", "re-weighting").lemma).toBe(annotate("reweighting").tokens[0].lemma);
    expect(byText("Send an e-mail to the office.", "e-mail").lemma).toBe("email");
  });
});

describe("annotate: sentences", () => {
  const sentencesOf = (text: string) => annotate(text).sentences.map((s) => text.slice(s.start, s.end));

  it("does not end a sentence inside an operator such as !=", () => {
    expect(sentencesOf("The loop stops when x != y holds. Then it returns.")).toEqual(["The loop stops when x != y holds.", "Then it returns."]);
  });

  it("does not end a sentence at the dots of a web address", () => {
    const text = "The forum (www.forum-example.org) is where we talk. Post there.";
    expect(annotate(text).sentences.map((s) => text.slice(s.start, s.end))).toEqual(["The forum (www.forum-example.org) is where we talk.", "Post there."]);
  });

  it("still ends a sentence at an exclamation mark followed by a space", () => {
    expect(sentencesOf("Submit early! Late work loses marks.")).toEqual(["Submit early!", "Late work loses marks."]);
    // wink starts the next sentence at the newline: a newline is whitespace, not a flush start.
    expect(sentencesOf("Submit early!\nLate work loses marks.").map((x) => x.trim())).toEqual(["Submit early!", "Late work loses marks."]);
    expect(sentencesOf("Submit early.\nLate work loses marks.").map((x) => x.trim())).toEqual(["Submit early.", "Late work loses marks."]);
  });
});

describe("annotate: entities", () => {
  it("reads a pound, euro or dollar sign flush before a number as a sum of money", () => {
    const sums = (text: string) => annotate(text).entities.filter((e) => e.type === "MONEY").map((e) => e.text);
    expect(sums("The lab coat is £18.50 and goggles €7.")).toEqual(["£18.50", "€7"]);
    expect(sums("Parking is $12 a day.")).toEqual(["$12"]);
    expect(annotate("The lab coat is £18.50.").entities.filter((e) => e.type === "CARDINAL")).toEqual([]);
  });

  const text = "The report is due on 14 March 2025 at 3:30 pm and counts for 15% of the grade. Questions go to helpdesk@example.edu.";

  it("finds a date, a time, a percentage and an email with their text and offsets", () => {
    const { entities } = annotate(text);
    expect(entities.map((e) => [e.type, e.text])).toEqual([
      ["DATE", "14 March 2025"],
      ["TIME", "3:30 pm"],
      ["PERCENT", "15%"],
      ["EMAIL", "helpdesk@example.edu"],
    ]);
    for (const e of entities) expect(text.slice(e.start, e.end)).toBe(e.text);
  });

  it("reads a clock time written h:mm, or a range of two, as a time", () => {
    const text = "Labs run 2:10–4:00 on Fridays; the desk opens at 8:30. The ratio was 3:1.";
    const times = annotate(text).entities.filter((e) => e.type === "TIME").map((e) => e.text);
    expect(times).toEqual(expect.arrayContaining(["8:30"]));
    expect(times.some((t) => t.startsWith("2:10"))).toBe(true);
    expect(times).not.toContain("3:1");
  });

  it("reads a number with one letter written flush after it as one code, not a count", () => {
    const { tokens, entities } = annotate("Room 12C holds 40 seats.");
    expect(tokens.filter((t) => t.content).map((t) => t.lemma)).toEqual(["room", "12c", "hold", "40", "seat"]);
    expect(entities.map((e) => e.text)).toEqual(["40"]);
    // Apart, or followed by more letters, they stay two words.
    expect(contentLemmas("Row 12 C holds 40 seats.")).toContain("12");
  });

  it("reads a bare four-digit year as a date, not an identifier or a quantity", () => {
    const types = (t: string) => annotate(t).entities.map((e) => [e.type, e.text]);
    expect(types("The lighthouse was rebuilt in 1894, after the storm.")).toContainEqual(["DATE", "1894"]);
    // A month name before it is no identifier, even where the tagger cuts the date in two.
    expect(types("The garrison resisted until February 1082, when the town fell.")).toContainEqual(["DATE", "1082"]);
    // An identifier after a noun, and a count before one, stay numbers.
    expect(types("The seminar is in Room 1410 and ART 1300 meets there.")).toContainEqual(["CARDINAL", "1300"]);
    expect(types("A flock of 1200 geese landed.")).toContainEqual(["CARDINAL", "1200"]);
  });

  it("reads a later day joined to a date by a dash as the end of the date's range, not a count", () => {
    const types = (t: string) => annotate(t).entities.map((e) => [e.type, e.text]);
    expect(types("The field school runs Jun 3–9 at the coast.")).toEqual([["DATE", "Jun 3–9"]]);
    expect(types("Reading break: Feb 16 - 20.")).toContainEqual(["DATE", "Feb 16 - 20"]);
    // A number after a dash that is no later day of the month counts something.
    expect(types("Auditions on 4 April – 30 places.")).toContainEqual(["CARDINAL", "30"]);
  });

  it("reads a telephone number with its area code as one number to call, not as counts, and leaves dates and codes alone", () => {
    const types = (t: string) => annotate(t).entities.map((e) => [e.type, e.text]);
    expect(types("Greenhouse desk: (614) 292-7765, weekdays.")).toEqual([["PHONE", "(614) 292-7765"]]);
    expect(types("Text 614.292.7765 or call +353 1 896 1000.")).toEqual([
      ["PHONE", "614.292.7765"],
      ["PHONE", "+353 1 896 1000"],
    ]);
    expect(types("Handed in 2026-03-14 at 09:30.").map(([type]) => type)).not.toContain("PHONE");
    expect(types("Section 3.42 covers 120 seeds.").map(([type]) => type)).not.toContain("PHONE");
    expect(types("The estuary holds 20 000 000 cubic metres.").map(([type]) => type)).not.toContain("PHONE");
  });

  it("splits sentences", () => {
    const { sentences } = annotate(text);
    expect(sentences.map((s) => text.slice(s.start, s.end))).toEqual([
      "The report is due on 14 March 2025 at 3:30 pm and counts for 15% of the grade.",
      "Questions go to helpdesk@example.edu.",
    ]);
  });
});

describe("annotate: content words", () => {
  it("keeps a stop-listed adjective such as 'due' as content", () => {
    const due = byText("The report is due on Friday.", "due");
    expect(due.stop).toBe(true);
    expect(due.pos).toBe("ADJ");
    expect(due.content).toBe(true);
  });

  it("decides whether a verb is a stopword by its lemma, so every inflection of it agrees", () => {
    const forms = [
      ["Most gardeners use a trowel.", "use"],
      ["Most gardeners used a trowel.", "used"],
      ["Gardeners are using a trowel.", "using"],
    ] as const;
    for (const [text, word] of forms) expect(byText(text, word)).toMatchObject({ lemma: "use", content: true });
    for (const [text, word] of [["They give the keys back.", "give"], ["They gave the keys back.", "gave"]] as const) expect(byText(text, word)).toMatchObject({ lemma: "give", content: false });
  });

  it("does not count a pronoun that wink leaves joined to its clitic ('I'm', 'we’re')", () => {
    for (const [text, word] of [["Can I leave early if I'm unwell?", "I'm"], ["What if I’m unwell?", "I’m"]]) {
      const t = byText(text, word);
      expect(t.content).toBe(false);
      expect(t.stop).toBe(true);
    }
    expect(byText("Can I leave early if I'm unwell?", "unwell").content).toBe(true);
  });

  it("reads a capital letter with no noun phrase after it as the letter (a grade, an option), not the article", () => {
    expect(byText("You need 85 points for an A overall.", "A")).toMatchObject({ pos: "NOUN", content: true });
    expect(byText("B 80–89", "B").content).toBe(true);
    expect(byText("A 90–100", "A")).toMatchObject({ content: true, lemma: byText("You need 85 points for an A overall.", "A").lemma });
    expect(byText("A tutor marks each essay.", "A").content).toBe(false);
  });

  it("reads a grade letter with its plus or minus as one mark, whichever minus was printed", () => {
    expect(byText("Which score earns a B-?", "B-")).toMatchObject({ lemma: "b-", content: true });
    expect(byText("B\u2212 80–82.99", "B\u2212")).toMatchObject({ lemma: "b-", content: true });
    expect(byText("C+ 77–79", "C+").lemma).toBe("c+");
    expect(byText("B 83–86", "B").lemma).toBe("b");
    // A hyphenated compound or a language name is no grade.
    expect(annotate("Run A-B tests in C++ first.").tokens.some((t) => /^[a-z][+-]$/.test(t.lemma))).toBe(false);
  });

  it("does not count determiners, auxiliaries and prepositions", () => {
    const words = annotate("The report is due on Friday.").tokens.filter((t) => !t.content).map((t) => t.text);
    expect(words).toEqual(["The", "is", "on", "."]);
  });

  it("returns the same object for the same text (cache)", () => {
    expect(annotate("A cached line.")).toBe(annotate("A cached line."));
  });
});
