import { describe, expect, it } from "vitest";
import { layoutText } from "./layout.mjs";

const SIZE = 11;
const LEADING = 13.5;
const RIGHT = 523;

/** One text run at (x, line n from the top), `width` wide. */
const run = (str: string, x: number, line: number, width: number) => ({ str, transform: [SIZE, 0, 0, SIZE, x, 700 - line * LEADING], width, height: SIZE, hasEOL: false });

describe("layoutText: hanging indents", () => {
  it("joins a line that runs to the margin with the indented line under it (a description list's term and its text)", () => {
    const text = layoutText([
      run("Checkpoint A checkpoint writes every dirty page to disk so that recovery", 72, 0, RIGHT - 72),
      run("can start from it instead of from the beginning of the log.", 99, 1, 300),
    ]);
    expect(text).toBe("Checkpoint A checkpoint writes every dirty page to disk so that recovery can start from it instead of from the beginning of the log.");
  });

  it("joins a term set apart in a cell of its own with the line that starts under its text", () => {
    const text = layoutText([
      run("Latch", 72, 0, 30),
      run("a short-lived lock on an in-memory structure, held only for the", 160, 0, RIGHT - 160),
      run("duration of one operation.", 160, 1, 150),
    ]);
    expect(text).toBe("Latch a short-lived lock on an in-memory structure, held only for the duration of one operation.");
  });

  it("keeps a contents line apart from the indented entry below it", () => {
    const text = layoutText([
      run("4 Storage . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 31", 72, 0, RIGHT - 72),
      run("4.1 Buffer pools . . . . . . . . . . . . . . . . . . . . . . . . . . . . . 32", 99, 1, RIGHT - 99),
    ]);
    expect(text.split("\n")).toHaveLength(2);
  });

  it("keeps a short line apart from an indented line below it", () => {
    const text = layoutText([run("Example", 72, 0, 50), run("SELECT * FROM pages;", 99, 1, 120)]);
    expect(text).toBe("Example\nSELECT * FROM pages;");
  });
});

describe("layoutText: table rows printed cell by cell", () => {
  /** A run that ends its line, as a browser ends each wrapped line of a cell. */
  const eol = (str: string, x: number, line: number, width: number) => ({ ...run(str, x, line, width), hasEOL: true });
  /** One row whose top line is `line`: each cell (its x and its wrapped lines) printed whole before the next. */
  const row = (line: number, cells: Array<[number, string[]]>) =>
    cells.flatMap(([x, texts]) => texts.map((t, k) => (k < texts.length - 1 ? eol : run)(t, x, line + k, t.length * 6)));
  // A header and two rows of a three-column table; rows are 1.5 lines apart (cell padding).
  const rows = [
    ...row(0, [[72, ["Unit"]], [200, ["Reading"]], [380, ["Studio"]]]),
    ...row(1, [[72, ["Glaze chemistry,", "kiln atmospheres"]], [200, ["Chapter 7 of the", "handbook"]], [380, ["Test tiles due"]]]),
    ...row(3.5, [[72, ["Throwing large", "forms"]], [200, ["Chapter 9"]], [380, ["Bowl set due"]]]),
  ];

  it("reads each row as one line, its cells in order and their wrapped lines joined", () => {
    expect(layoutText(rows)).toBe(
      "Unit Reading Studio\nGlaze chemistry, kiln atmospheres Chapter 7 of the handbook Test tiles due\nThrowing large forms Chapter 9 Bowl set due",
    );
  });

  it("keeps a row whole when a cell filled to its edge runs into the next cell on one baseline", () => {
    const staff = [
      ...row(0, [[72, ["Name"]], [160, ["Email"]], [330, ["Office"]], [420, ["Hours"]]]),
      // The address ends 14 pt before "Ferris": wider than a word space, narrower than a table's gap.
      ...row(1.5, [[72, ["Ana", "Ruiz-Palma"]], [160, ["ana.ruizpalma@univ.example"]], [330, ["Ferris", "Hall 210"]], [420, ["Mon 10–11", "a.m."]]]),
    ];
    expect(layoutText(staff)).toBe("Name Email Office Hours\nAna Ruiz-Palma ana.ruizpalma@univ.example Ferris Hall 210 Mon 10–11 a.m.");
  });

  it("reads a row as one line when its first cells stand closer than a table's gap and one cell is wide", () => {
    // "R1" and its item's name are 12 pt apart: more than a word space, less than the gap that proves a row on its own.
    const constraints = [
      ...row(0, [[72, ["Ref"]], [96, ["Item"]], [190, ["Requirement"]], [486, ["Source"]]]),
      ...row(1, [[72, ["R1"]], [96, ["Creek", "setback"]], [190, ["Set back at least 8 m from the top of the bank"]], [486, ["Plan 4.2"]]]),
      ...row(3.5, [[72, ["R2"]], [96, ["Roof pitch"]], [190, ["Between 15 and 30 degrees on every roof plane", "facing the street"]], [486, ["Plan 5.1"]]]),
    ];
    expect(layoutText(constraints)).toBe(
      "Ref Item Requirement Source\nR1 Creek setback Set back at least 8 m from the top of the bank Plan 4.2\nR2 Roof pitch Between 15 and 30 degrees on every roof plane facing the street Plan 5.1",
    );
  });

  it("reads a row whose cells are centred (a browser's default) as one line", () => {
    const centred = [
      ...row(0, [[72, ["Unit"]], [200, ["Studio"]]]),
      run("4", 72, 1.5, 6),
      ...row(1, [[200, ["Raku firing outdoors,", "weather permitting"]]]),
    ];
    expect(layoutText(centred)).toBe("Unit Studio\n4 Raku firing outdoors, weather permitting");
  });

  it("reads a header row whose cells are set right, over columns of figures, as one line with each cell's wrapped lines", () => {
    /** A cell set flush right at `right`: each wrapped line ends there, however long. */
    const rightCell = (right: number, line: number, texts: string[]) => texts.map((t, k) => (k < texts.length - 1 ? eol : run)(t, right - t.length * 6, line + k, t.length * 6));
    const ledger = [
      run("Term", 72, 0, 24),
      ...rightCell(230, 0, ["Enrolled", "students"]),
      ...rightCell(340, 0, ["Kiln hours", "booked"]),
      ...rightCell(470, 0, ["Glaze cost per", "student ($)"]),
      run("1", 72, 2.5, 6),
      ...rightCell(230, 2.5, ["48"]),
      ...rightCell(340, 2.5, ["120"]),
      ...rightCell(470, 2.5, ["35.50"]),
    ];
    expect(layoutText(ledger)).toBe("Term Enrolled students Kiln hours booked Glaze cost per student ($)\n1 48 120 35.50");
  });

  it("keeps a superscript or subscript set smaller than its line on that line", () => {
    const small = (str: string, x: number, y: number, width: number) => ({ str, transform: [7, 0, 0, 7, x, y], width, height: 7, hasEOL: false });
    const text = layoutText([
      run("The kiln reaches 1.2 m/s", 72, 0, 120),
      small("2", 192, 700 + 4, 4),
      run(" of draft; the flue is d", 196, 0, 110),
      small("0", 306, 700 - 2, 4),
      run(" wide.", 310, 0, 30),
      run("The next line starts here.", 72, 1, 130),
    ]);
    expect(text).toBe("The kiln reaches 1.2 m/s2 of draft; the flue is d0 wide. The next line starts here.");
  });

  it("leaves a superscript where it was: a cell starts past a gap, not where the text before it ends", () => {
    const text = layoutText([eol("Area", 72, 0, 25), eol("grows as r", 72, 1, 50), run("2", 122, 0.4, 5), run("Below it, a line as wide as the page sets its width.", 72, 3, RIGHT - 72)]);
    expect(text).not.toContain("r 2");
  });

  it("keeps the rows of a table printed far apart in one block when their cells line up, centred or not", () => {
    // A header over centred figures, rows 2.5 lines apart.
    const spaced = [
      ...[["Glaze", 72, 40], ["Cone", 200, 30], ["Shrinkage", 300, 60]].map(([t, x, w]) => run(t as string, x as number, 0, w as number)),
      ...[["Celadon", 72, 50], ["10", 210, 12], ["12%", 318, 24]].map(([t, x, w]) => run(t as string, x as number, 2.5, w as number)),
      ...[["Shino", 72, 36], ["9", 213, 6], ["11%", 318, 24]].map(([t, x, w]) => run(t as string, x as number, 5, w as number)),
    ];
    expect(layoutText(spaced)).toBe("Glaze Cone Shrinkage\nCeladon 10 12%\nShino 9 11%");
    // Paragraphs as far apart are still paragraphs.
    expect(layoutText([run("A short paragraph.", 72, 0, 90), run("Another one.", 72, 2.5, 60)])).toBe("A short paragraph.\n\nAnother one.");
  });

  it("keeps running text beside a short item as one paragraph: a cell is narrower than most of the page", () => {
    const words = Array.from({ length: 10 }, (_, i) => `line ${i + 1} of a paragraph that runs the width of the page`);
    const text = layoutText([eol("x", 72, 0, 8), eol("y", 72, 1, 8), ...words.map((w, i) => run(w, 100, i, RIGHT - 100))]);
    expect(text).toBe(`x y\n\n${words.join(" ")}`);
  });

  it("keeps a two-column list of numbered items as lines, not one row", () => {
    const text = layoutText([eol("1. Glazes", 72, 0, 60), eol("2. Kilns", 72, 1, 50), eol("3. Forms", 300, 0, 50)]);
    expect(text).toBe("1. Glazes\n2. Kilns\n\n3. Forms");
  });
});
