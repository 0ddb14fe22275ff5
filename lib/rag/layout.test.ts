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
