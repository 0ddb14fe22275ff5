import { describe, expect, it } from "vitest";
import { annotate } from "../text/nlp";
import { answerUnits, displayText, endsInRows, sectionCarriedOver, sectionTitleEnd, sectionTitles, tableCarriedOver, type Unit } from "./units";

interface Shown {
  kind: Unit["kind"];
  quote: string;
  context: string[];
}

const unitsOf = (text: string): Shown[] =>
  answerUnits(annotate(text)).map((u) => ({ kind: u.kind, quote: text.slice(u.start, u.end), context: u.context.map((c) => text.slice(c.start, c.end)) }));

const find = (text: string, quote: string) => unitsOf(text).filter((u) => u.quote === quote);

describe("answerUnits: kinds", () => {
  it("joins a label with its value on the next line", () => {
    const text = "Required reading\nThe Pragmatic Programmer, 2nd edition";
    expect(find(text, text)).toEqual([{ kind: "label_value", quote: text, context: [] }]);
    // Each line is also a unit of its own; the label heads the value line.
    expect(find(text, "The Pragmatic Programmer, 2nd edition")).toEqual([{ kind: "line", quote: "The Pragmatic Programmer, 2nd edition", context: ["Required reading"] }]);
  });

  it("does not read a line of bare numbers (a formula's exponents) as a label over the next line", () => {
    const text = "3\n3, so the curve rises as a + bx";
    expect(unitsOf(text).filter((u) => u.kind === "label_value")).toEqual([]);
  });

  it("quotes a line whose verb has no subject with the line above it, whose subject it is", () => {
    const text = "Kiln booking opens Monday 3 March, 8:00 am\nCloses Friday 7 March, 5 pm · two shelves each";
    expect(unitsOf(text).map((u) => u.quote)).toContain(text);
    // A line with its own subject, or an imperative, says what it is about by itself.
    const opens = "Kiln booking for the spring term opens on Monday 3 March at 8:00 am";
    for (const second of ["It closes Friday 7 March", "Close the lid before firing"]) expect(unitsOf(`${opens}\n${second}`).map((u) => u.quote)).not.toContain(`${opens}\n${second}`);
  });

  it("quotes a sentence the printout broke across a blank line as one ('… will instead be', blank, 'held on …')", () => {
    const text = "Glazing is on Tuesdays. The Week 6 glazing session will instead be\n\nheld on Thursday 10 April in Studio 2. Bring aprons.";
    expect(unitsOf(text).map((u) => u.quote)).toContain("The Week 6 glazing session will instead be\n\nheld on Thursday 10 April in Studio 2.");
    // A block that ends its sentence, or one that opens a new one, stands alone.
    expect(unitsOf("Glazing is on Tuesdays.\n\nbring aprons to each session.").map((u) => u.quote)).not.toContain("Glazing is on Tuesdays.\n\nbring aprons to each session.");
  });

  it("reads an inline label with its value on the same line", () => {
    expect(unitsOf("Office: Room 12")).toEqual([{ kind: "label_value", quote: "Office: Room 12", context: [] }]);
  });

  it("reads a numbered line with a colon as a section heading, not a label with its value", () => {
    expect(unitsOf("5.1 Sorting: Merge Sort")).toEqual([{ kind: "line", quote: "5.1 Sorting: Merge Sort", context: [] }]);
  });

  it("quotes a lead-in with the lines it announces", () => {
    const text = "The labs cover:\n• parsing\n• type checking";
    const leadIns = unitsOf(text).filter((u) => u.kind === "lead_in");
    expect(leadIns.map((u) => u.quote)).toEqual(["The labs cover:\n• parsing", "The labs cover:\n• parsing\n• type checking"]);
  });

  it("quotes a lead-in alone in its paragraph with what it announces after the blank line", () => {
    const text = "The handbook defines plagiarism as:\n\nPresenting another person's work as your own. It is reported to the board.\n\nAppeals go to the dean.";
    const leadIns = unitsOf(text).filter((u) => u.kind === "lead_in");
    expect(leadIns.map((u) => u.quote)).toEqual(["The handbook defines plagiarism as:\n\nPresenting another person's work as your own."]);
    expect(displayText(leadIns[0].quote)).toBe("The handbook defines plagiarism as: Presenting another person's work as your own.");
    // Alone, the lead-in says nothing: it is no unit of its own.
    expect(unitsOf(text).map((u) => u.quote)).not.toContain("The handbook defines plagiarism as:");
    const inBlock = "Grades come from these parts:\nLabs 40%\nExam 60%";
    expect(unitsOf(inBlock).map((u) => u.quote)).not.toContain("Grades come from these parts:");
    // A line that announces nothing (no colon) stays on its side of the blank line.
    expect(unitsOf(text).filter((u) => u.quote.includes("Appeals") && u.quote.includes("\n"))).toEqual([]);
  });

  it("quotes a heading with the list under it, as a lead-in, and stops where the list does", () => {
    const text = "Tutor\n• Ines Marlowe\n• Room 12\n• Wed 2-3pm\nQuestions by email only.";
    const leadIns = unitsOf(text).filter((u) => u.kind === "lead_in");
    expect(leadIns.map((u) => u.quote)).toEqual(["Tutor\n• Ines Marlowe\n• Room 12\n• Wed 2-3pm"]);
  });

  it("reads a list item with its lead-in as context", () => {
    const text = "Bring the following:\n\uF0B7 a calculator\n\uF0B7 two pencils";
    const items = unitsOf(text).filter((u) => u.kind === "list_item");
    expect(items).toEqual([
      { kind: "list_item", quote: "\uF0B7 a calculator", context: ["Bring the following:"] },
      { kind: "list_item", quote: "\uF0B7 two pencils", context: ["Bring the following:"] },
    ]);
  });

  it("gives the items of a list that opens its block the heading above it as context", () => {
    const text = "Studio supplies\n\n\uF0B7 a cutting mat\n\uF0B7 a steel ruler";
    expect(unitsOf(text).filter((u) => u.kind === "list_item")).toEqual([
      { kind: "list_item", quote: "\uF0B7 a cutting mat", context: ["Studio supplies"] },
      { kind: "list_item", quote: "\uF0B7 a steel ruler", context: ["Studio supplies"] },
    ]);
  });

  it("reads a numbered line as an item of its list, with the list's lead-in as context, not as a row of a table", () => {
    const text = "Kiln access\nBefore firing in Room K2 you must:\n1. finish the glaze safety quiz;\n2. book a slot with the technician;\n(c) label every shelf.";
    const items = unitsOf(text).filter((u) => u.kind === "list_item");
    expect(items).toEqual([
      { kind: "list_item", quote: "1. finish the glaze safety quiz;", context: ["Before firing in Room K2 you must:"] },
      { kind: "list_item", quote: "2. book a slot with the technician;", context: ["Before firing in Room K2 you must:"] },
      { kind: "list_item", quote: "(c) label every shelf.", context: ["Before firing in Room K2 you must:"] },
    ]);
    expect(unitsOf(text).some((u) => u.kind === "table_row")).toBe(false);
    // A numbered section heading is no list item.
    expect(unitsOf("1.2 Glazes and slips\nSlips are applied wet.").some((u) => u.kind === "list_item")).toBe(false);
  });

  it("cuts a line of several sentences into its sentences, and does not offer the whole paragraph", () => {
    const text = "Quizzes open on Monday. Each quiz closes on Friday at noon. Late attempts score zero.";
    expect(unitsOf(text).map((u) => [u.kind, u.quote])).toEqual([
      ["sentence", "Quizzes open on Monday."],
      ["sentence", "Each quiz closes on Friday at noon."],
      ["sentence", "Late attempts score zero."],
    ]);
  });

  it("also quotes a short line whole when its later sentences are only data: one entry of a list", () => {
    const text = "Further reading\nJonas Weller, Tidal Flats (2019). Main Library, QH541 .W45.\nThe tide turns twice a day. Plan the walk early.";
    expect(find(text, "Jonas Weller, Tidal Flats (2019). Main Library, QH541 .W45.")).toHaveLength(1);
    expect(find(text, "Main Library, QH541 .W45.")).toHaveLength(1);
    // Two statements on one line stay two quotes.
    expect(find(text, "The tide turns twice a day. Plan the walk early.")).toEqual([]);
  });

  it("quotes a sentence that opens by pointing back with the sentence before it", () => {
    const text = "The lab kit ships in a grey case. It was designed by the teaching staff in 2019. This case also holds the spare probes. Returns go to room 4.";
    expect(unitsOf(text).map((u) => u.quote)).toEqual([
      "The lab kit ships in a grey case.",
      "The lab kit ships in a grey case. It was designed by the teaching staff in 2019.",
      "It was designed by the teaching staff in 2019. This case also holds the spare probes.",
      "Returns go to room 4.",
    ]);
  });

  it("gives the sentences under a heading the heading as context", () => {
    const text = "Grading\n\nThe essay is worth half the mark.\nThe exam is worth the rest.";
    expect(find(text, "The exam is worth the rest.")).toEqual([{ kind: "sentence", quote: "The exam is worth the rest.", context: ["Grading"] }]);
  });

  const table = "Week  Topic  Reading\n1  Lexing  Chapter 2\n2  Parsing  Chapter 3\n3  Typing  Chapter 5";

  it("reads a table row with its header row as context", () => {
    expect(find(table, "2  Parsing  Chapter 3")).toEqual([{ kind: "table_row", quote: "2  Parsing  Chapter 3", context: ["Week  Topic  Reading"] }]);
  });

  it("reads rows under a header of more columns than a label has words, when each row holds a figure", () => {
    const wide = "Glaze Cone rating Firing range C Shrinkage percent Surface finish\nCeladon 10 1285 12 glossy\nShino 9 1260 11 satin\nTenmoku 10 1290 13 glossy";
    expect(find(wide, "Shino 9 1260 11 satin")).toEqual([{ kind: "table_row", quote: "Shino 9 1260 11 satin", context: ["Glaze Cone rating Firing range C Shrinkage percent Surface finish"] }]);
    expect(answerUnits(annotate(wide)).some((u) => wide.slice(u.start, u.end).includes("\n"))).toBe(false);
    // Lines of prose without full stops are no table.
    const prose = "The glazes we use most in this studio were mixed from\nrecipes the department has kept for many years and\nthey are tested before every firing";
    expect(unitsOf(prose).some((u) => u.kind === "table_row")).toBe(false);
  });

  it("reads rows that wrapped cells set apart in blocks of their own under the table's header row", () => {
    const staff = "Post Person Email Room Drop-in hours\n\nStudio lead\n\nIvo Brandt\n\ni.brandt@kiln.example Annex 1.04 Fridays 10:00–12:00\n\nTechnician Lea Moss l.moss@kiln.example Annex 0.12 Mondays 14:00–15:30\n\nDrop-in hours pause in exam weeks.";
    const header = ["Post Person Email Room Drop-in hours"];
    expect(find(staff, "Technician Lea Moss l.moss@kiln.example Annex 0.12 Mondays 14:00–15:30")).toEqual([{ kind: "table_row", quote: "Technician Lea Moss l.moss@kiln.example Annex 0.12 Mondays 14:00–15:30", context: header }]);
    expect(find(staff, "i.brandt@kiln.example Annex 1.04 Fridays 10:00–12:00")[0].context).toEqual(header);
    // Prose between them ends the table: a line under it is no row.
    const after = "Post Person Email Room Drop-in hours\n\nA note on rooms follows.\n\nAnnex 0.12 is on the ground floor";
    expect(find(after, "Annex 0.12 is on the ground floor")[0].kind).not.toBe("table_row");
  });

  it("reads rows under a header whose wrapped cells the printout broke into short lines and blocks, with the whole header as context", () => {
    const glaze = "Glaze firing schedule (cone ratings)\n\nStage Kiln temperature Hold\ntime\n\nWitness\ncone\n\n1 600 C 20 min 022\n2 900 C 15 min 010\n3 1240 C 10 min 6\n\nLet the kiln cool overnight.";
    const header = "Stage Kiln temperature Hold\ntime\n\nWitness\ncone";
    for (const row of ["1 600 C 20 min 022", "3 1240 C 10 min 6"]) expect(find(glaze, row)).toEqual([{ kind: "table_row", quote: row, context: [header] }]);
    // Lines of words over a sentence are no header: the rows must open with figures.
    const prose = "Stage Kiln temperature Hold\ntime\n\nWitness\ncone\n\nFire the kiln slowly.\nCool it overnight.";
    expect(unitsOf(prose).some((u) => u.kind === "table_row")).toBe(false);
  });

  it("reads every row of a table whose header row stands apart, across a blank line, with that header as context", () => {
    const apart = "Table 2 — Kiln firings\n\nCone Temperature Use\n\n06 999 C bisque ware\n6 1222 C mid-range stoneware\n10 1285 C porcelain\n\nFire slowly through quartz inversion.";
    for (const row of ["06 999 C bisque ware", "6 1222 C mid-range stoneware", "10 1285 C porcelain"]) {
      expect(find(apart, row)).toEqual([{ kind: "table_row", quote: row, context: ["Cone Temperature Use"] }]);
    }
    // A line of words over prose sentences is a heading, not a header row.
    const heading = "Safety Rules Summary\n\nWear goggles at the wheel at all times.\nTie back long hair before you start.";
    expect(unitsOf(heading).some((u) => u.kind === "table_row")).toBe(false);
  });

  it("reads one word over lines as their title, not a header row: a line and the line under it are a label and its value", () => {
    const slide = "Reminders\nQuiz 2 (chapters 3–4)\nopen book, in class Friday\nBring a calculator";
    expect(unitsOf(slide).some((u) => u.kind === "table_row")).toBe(false);
    expect(find(slide, "Quiz 2 (chapters 3–4)\nopen book, in class Friday")).toEqual([{ kind: "label_value", quote: "Quiz 2 (chapters 3–4)\nopen book, in class Friday", context: ["Reminders"] }]);
  });

  it("never pairs a table row with the next row (or the header with the first row) as a label and its value", () => {
    const units = answerUnits(annotate(table));
    const spans = units.map((u) => table.slice(u.start, u.end));
    expect(spans.some((q) => q.includes("\n"))).toBe(false);
    // Outside a table a short label still takes the next line as its value.
    const labelled = "Required text\nThe Art of Compilers, 2nd edition";
    expect(answerUnits(annotate(labelled)).map((u) => [u.kind, labelled.slice(u.start, u.end)])).toContainEqual(["label_value", labelled]);
  });

  it("quotes each table row on its own with the header row as context", () => {
    for (const row of ["1  Lexing  Chapter 2", "2  Parsing  Chapter 3", "3  Typing  Chapter 5"]) {
      const units = find(table, row);
      expect(units).toHaveLength(1);
      expect(units[0].context).toEqual(["Week  Topic  Reading"]);
    }
  });
});

describe("answerUnits: invariants", () => {
  const texts = [
    "  Late work loses marks.  \n\n\n   Ask early.   \n \t \nExtensions: email the tutor\nSee the handbook: section 4",
    "Bring the following:\n\uF0B7 a calculator\n\uF0B7 two pencils\n\nThe labs cover:\n• parsing\n• type checking\n\nOffice: Room 12",
    "Grading\n\nThe essay is worth half the mark. The exam is worth the rest.\n\nRequired reading\nThe Pragmatic Programmer, 2nd edition\n",
  ];

  it.each(texts.map((t, i) => [i, t]))("text %i: every quote is the verbatim slice, trimmed, on one side of any blank line unless a lead-in announces it", (_i, text) => {
    const units = answerUnits(annotate(text));
    expect(units.length).toBeGreaterThan(3);
    const keys = new Set<string>();
    for (const u of units) {
      const quote = text.slice(u.start, u.end);
      expect(quote.trim()).toBe(quote);
      expect(quote).toMatch(/[\p{L}\p{N}]/u);
      if (u.kind !== "lead_in" || !/:\s*\n/.test(quote)) expect(quote).not.toMatch(/\n[^\p{L}\p{N}\n]*\n/u);
      for (const c of u.context) expect(c.end).toBeGreaterThan(c.start);
      keys.add(`${u.start}:${u.end}`);
    }
    // No duplicates, in text order.
    expect(keys.size).toBe(units.length);
    units.slice(1).forEach((u, i) => expect(u.start).toBeGreaterThanOrEqual(units[i].start));
  });

  it("gives nothing for a blank text", () => {
    expect(answerUnits(annotate(" \n\n\t"))).toEqual([]);
  });
});

describe("displayText", () => {
  it("drops bullet glyphs, a private-use one included, and joins the lines", () => {
    expect(displayText("\uF0B7 a calculator\n• two pencils\n- and   an eraser")).toBe("a calculator; two pencils; and an eraser");
  });

  it("joins a lead-in with its items", () => {
    expect(displayText("The labs cover:\n• parsing\n• type checking")).toBe("The labs cover: parsing; type checking");
  });

  it("leaves a plain sentence as it is", () => {
    expect(displayText("The exam is worth the rest.")).toBe("The exam is worth the rest.");
    expect(displayText("Office Hours\nTuesdays 2–4 in Room 5")).toBe("Office Hours: Tuesdays 2–4 in Room 5");
  });
});

describe("sectionTitles", () => {
  it("finds headings that open their block and numbered items' titles, up to the title's first sentence", () => {
    const text = "2.3 Glaze chemistry\n\nGlazes melt at cone 6.\n\nExample 2.4 (Celadon test). A tile is fired twice.\nResult: the glaze crazes.\n\nStudio rules\nNo food near the kilns.";
    expect(sectionTitles(text).map((s) => text.slice(s.start, s.end))).toEqual(["2.3 Glaze chemistry", "Example 2.4 (Celadon test).", "Studio rules"]);
  });

  it("does not take a label with its value, a line inside a paragraph or a lead-in for a title", () => {
    const text = "Office: Room 12\nThe kiln is loaded on Mondays and\nfired on Tuesdays\n\nFiring steps:\nLoad the shelves.";
    expect(sectionTitles(text)).toEqual([]);
    // A numbered line inside a block is a table's row ("Project 2 — …" under "Project 1 — …"), not an item's title.
    const grading = "Component Weight\nProject 1 — Vessel 40%\nProject 2 — Tile 60%";
    expect(sectionTitles(grading).map((t) => grading.slice(t.start, t.end))).toEqual(["Component Weight"]);
  });

  it("reads a numbered line alone in its block as a section's heading, unless the next block is another item of a list", () => {
    const text = "4. Studio safety (all groups)\n\nGoggles are worn at the wheel.";
    expect(sectionTitles(text).map((s) => text.slice(s.start, s.end))).toEqual(["4. Studio safety (all groups)"]);
    expect(sectionTitles("1. Wedge the clay\n\n2. Centre it on the wheel")).toEqual([]);
  });

  it("reads a numbered item's title set off by a middle dot, a hyphen or a full stop, up to the title's end (not the label's dot)", () => {
    const text = "Problem 4 · Reactions at the pier supports\n\nGiven: a 9 m deck.\n\nTask 2. Survey the bank. Record the slope.\n\nExercise 7 - Tidal prism";
    expect(sectionTitles(text).map((s) => text.slice(s.start, s.end))).toEqual(["Problem 4 · Reactions at the pier supports", "Task 2. Survey the bank.", "Exercise 7 - Tidal prism"]);
  });

  it("does not end a worked example's section at a line of figures (a matrix printed row by row)", () => {
    const text = "Example 3.2 (Two kilns). Let the loads be\n\n12 7 30 4 . Compare\nthe firing times.\n\nSo kiln B finishes first.";
    expect(sectionTitles(text).map((s) => text.slice(s.start, s.end))).toEqual(["Example 3.2 (Two kilns)."]);
  });
});

describe("rows a chunk boundary cut from their table", () => {
  const rows = "12 Mar 3 Raku firing\n13 Mar 10 Pit firing\n14 Mar 17 Glaze review";

  it("knows a text that ends inside a table's rows under its header row, wherever the header stands", () => {
    expect(endsInRows("Studio calendar\nWeek Date Topic\n10 Feb 17 Slab building\n11 Feb 24 Coil")).toBe(true);
    expect(endsInRows("Week Date Topic\n10 Feb 17 Slab building\n11 Feb 24 Coil pots\n\nGlazes are mixed on Fridays.")).toBe(false);
    expect(sectionTitles("Studio calendar\nWeek Date Topic\n10 Feb 17 Slab building\n11 Feb 24 Coil").length).toBe(2);
    // A chunk starts on a new line: the text above it ends in that line break.
    expect(endsInRows("Week Date Topic\n10 Feb 17 Slab building\n11 Feb 24 Coil pots\n")).toBe(true);
    // One row left above the boundary: the passage's opening rows prove the header.
    expect(endsInRows("Week Date Topic\n10 Feb 17 Slab building\n", "11 Feb 24 Coil pots\n12 Mar 3 Raku firing")).toBe(true);
    expect(endsInRows("Week Date Topic\n10 Feb 17 Slab building\n", "Glazes are mixed on Fridays.")).toBe(false);
  });

  it("takes a header row naming symbols with indices (f0, R1) for a header: they are no figures", () => {
    const text = "Resonance values\nCircuit f0 (kHz) Q R1 (Ω)\n1 15.9 7.8 100\n2 10.7 5.3 220";
    expect(sectionTitles(text).map((s) => text.slice(s.start, s.end))).toEqual(["Resonance values", "Circuit f0 (kHz) Q R1 (Ω)"]);
  });

  it("reads the first block's lines that open with a figure as rows when the passage continues a table", () => {
    const kinds = (continues: boolean) => answerUnits(annotate(rows), continues).filter((u) => u.kind === "table_row").length;
    expect(kinds(true)).toBe(3);
    expect(kinds(false)).toBeLessThan(3);
    // A page break may leave the tail of the last row's wrapped cell above the rows.
    const afterBreak = annotate(`kiln)\n\n${rows}`);
    expect(answerUnits(afterBreak, true).filter((u) => u.kind === "table_row").length).toBe(3);
  });

  it("carries a table over a page break: the previous page's header and rows, when this page opens inside them", () => {
    const previous = "Studio calendar\n\nWeek Date Topic\n10 Feb 17 Slab building\n11 Feb 24 Coil pots (see";
    expect(tableCarriedOver(previous, "note on clay)\n\n")).toBe("Week Date Topic\n10 Feb 17 Slab building\n11 Feb 24 Coil pots (see");
    expect(tableCarriedOver(previous, "Glazes are mixed on Fridays.\nBring an apron.\n")).toBe("");
    expect(tableCarriedOver("Glazes are mixed on Fridays.", "")).toBe("");
  });

  it("ends a numbered item's title after the paragraph that states the item, and any other title where it ends", () => {
    const end = (text: string) => {
      const [title] = sectionTitles(text);
      return text.slice(title.start, sectionTitleEnd(text, title));
    };
    expect(end("Problem 5 — Glaze batches\n\nGiven: a batch uses 3 kg of frit and 2 kg of clay.\n(a) Batch cost = 3 × 4 + 2 × 1 = $14.")).toBe(
      "Problem 5 — Glaze batches\n\nGiven: a batch uses 3 kg of frit and 2 kg of clay.",
    );
    expect(end("Example 2.1 (Shrinkage). A tile dries from 10 cm to 9.2 cm.\nShrinkage = 0.8 / 10 = 8%.")).toBe("Example 2.1 (Shrinkage). A tile dries from 10 cm to 9.2 cm.");
    expect(end("Firing schedule\n\nBisque firings run on Mondays.")).toBe("Firing schedule");
    // A title set apart by layout alone, no dash or colon after the number: the statement under it still says what the working answers.
    expect(end("Problem 4 Drying rack load\n\nA rack holds 12 boards of 1.5 kg each.\nLoad = 12 × 1.5 = 18 kg")).toBe("Problem 4 Drying rack load\n\nA rack holds 12 boards of 1.5 kg each.");
    // An item numbered by a code ("B3", "Q2") states itself as one numbered by a noun does.
    expect(end("B3 Kiln hire\n\nGiven: the kiln hires at $40 per firing.\nCost = 3 × 40 = $120")).toBe("B3 Kiln hire\n\nGiven: the kiln hires at $40 per firing.");
    // A number and a lowercase word is a row of a table or a sentence, not a title ("Week 4 in the kiln room").
    expect(end("Week 4 in the kiln room\n\nBring glaze samples.")).toBe("Week 4 in the kiln room");
  });

  it("carries a section's title over a page break when the page above the passage opens no section of its own", () => {
    const previous = "Exercise 3 — Kiln loading\n\nGiven: a kiln shelf holds 14 bowls and the firing takes 9 hours.\n(a) How many firings do 60 bowls need?";
    // A numbered item's title carries the paragraph that states the item: its working on the next page answers in other words.
    const stated = "Exercise 3 — Kiln loading\n\nGiven: a kiln shelf holds 14 bowls and the firing takes 9 hours.";
    expect(sectionCarriedOver(previous, "")).toBe(stated);
    expect(sectionCarriedOver(previous, "Firings = 60 / 14, rounded up to 5.\n")).toBe(stated);
    expect(sectionCarriedOver("Studio safety\n\nWear closed shoes near the wheels.", "")).toBe("Studio safety");
    // A title above the passage on its own page governs instead.
    expect(sectionCarriedOver(previous, "Exercise 4 — Glaze costs\n\nGiven: one litre of glaze costs $12.\n")).toBe("");
    expect(sectionCarriedOver("Glazes are mixed on Fridays, and every student brings an apron.", "")).toBe("");
  });

  it("carries the page before's last numbered item where the page opens with a part's heading but no item of its own", () => {
    const previous = "Studio safety\n\nExercise 3 — Kiln loading\n\nGiven: a kiln shelf holds 14 bowls.\n(a) Shelves [1]\nShelves = 60 / 14 = 4.3";
    expect(sectionCarriedOver(previous, "(b) Firings [2]\n")).toBe("Exercise 3 — Kiln loading\n\nGiven: a kiln shelf holds 14 bowls.");
    // A heading that is not a numbered item's leaves nothing to carry past it on the page.
    expect(sectionCarriedOver("Studio safety\n\nWear closed shoes near the wheels.", "Glaze room\n")).toBe("");
  });

  it("reads a part's heading alone on its line as a title, a part that says something as an item of a list", () => {
    const text = "(a) Shelf count [1]\nShelves = 60 / 14 = 4.3\n\n(b) the kiln is shared by two groups.\nBook it a week ahead.";
    expect(sectionTitles(text).map((t) => text.slice(t.start, t.end))).toEqual(["(a) Shelf count [1]"]);
  });
});
