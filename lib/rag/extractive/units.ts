/**
 * Answer units: the spans of a passage the extractive answerer may quote, read from its layout.
 * A unit is a sentence or a line (a sentence opening with "It"/"This …" together with the sentence
 * before it); a label with its value (same line or the next); a heading or
 * lead-in with the lines it announces; a table row under its header row; a list item under its
 * list's lead-in. Invariant: passage.text.slice(start, end) is the verbatim quote, on one page,
 * across a blank line only from a lead-in to what it announces; `context` spans (header, lead-in, heading) are read, not quoted.
 */
import { ANAPHORS } from "../lexicon";
import type { Annotated, TextToken } from "../text/nlp";

export const unitKinds = ["sentence", "line", "label_value", "lead_in", "table_row", "list_item"] as const;
export type UnitKind = (typeof unitKinds)[number];

export interface Span {
  start: number;
  end: number;
}

export interface Unit extends Span {
  kind: UnitKind;
  /** Text read with the unit but not quoted: a table's header row, a list's lead-in, the section heading above. */
  context: Span[];
}

interface Line extends Span {
  text: string;
  blank: boolean;
}

/** Bullets as PDFs draw them: private-use glyphs, bullet signs and dashes at the start of a line. */
const BULLET = /^[\s\p{Co}•▪◦●‣∙·*–-]+(?=\p{L}|\p{N}|\s)/u;
export const TERMINAL = /[.?!]["”’)]*$/u;
/** A section number opening a line ("6.1", "4.3.2"). */
export const SECTION_NUMBER = /^\s*\d+(?:\.\d+)+\.?\s/;
/** Lines this long or longer are prose, not labels or headings. */
export const MAX_LABEL_WORDS = 8;
/** A line of several sentences this short can be one entry of a list, not a paragraph. */
const MAX_ENTRY_WORDS = 30;
/** A table's header row names at least this many columns. */
const MIN_HEADER_WORDS = 2;
/** A lead-in announces at most this many lines. */
const MAX_ANNOUNCED_LINES = 6;

const wordCount = (s: string) => s.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const raw of text.split("\n")) {
    const end = start + raw.length;
    // Trim to the words: a quote never starts or ends in whitespace.
    const lead = raw.length - raw.trimStart().length;
    const trail = raw.length - raw.trimEnd().length;
    out.push({ start: start + lead, end: Math.max(start + lead, end - trail), text: raw.trim(), blank: !/[\p{L}\p{N}]/u.test(raw) });
    start = end + 1;
  }
  return out;
}

/** A numbered list's marker: "1.", "2)", "(a)", "b)" before the item's words (a section number, "1.2 Scope", has a digit after its dot). */
const NUMBERED = /^\s*(?:\d{1,2}[.)]|\(?[a-z]\))\s+(?=\p{L})/u;
/** A list item: a line opening with a bullet or a number ("2. attend the orientation;" is an item of its list, not a row of a table). */
export const isBullet = (line: string) => (BULLET.test(line) && /[\p{L}\p{N}]/u.test(line.replace(BULLET, ""))) || NUMBERED.test(line);
const isLeadIn = (line: string) => /:\s*$/.test(line);
/** A short line that names something: a label, a heading or a header row (a line of bare numbers, such as a formula's exponents, names nothing). */
const isLabelLike = (line: string, maxWords = MAX_LABEL_WORDS) => !isBullet(line) && !TERMINAL.test(line) && /\p{L}/u.test(line) && wordCount(line) <= maxWords;
/** A table's header row with more columns than a label has words ("Material Porosity n Specific yield Sy …"), over at least two rows that each hold a figure. */
const isHeaderOverFigures = (line: string, below: readonly Line[]) => isLabelLike(line, 2 * MAX_LABEL_WORDS) && below.length >= 2 && below.every((l) => /\d/.test(l.text));
/** "Office: Room 204": a short label, a colon, then its value on the same line; a numbered line ("6.1 Clustering: K-Means") is a section heading with its subtitle. */
const isInlineLabel = (line: string) => /^[^:]{1,40}:\s*\S/.test(line) && wordCount(line.split(":")[0]) <= 5 && !SECTION_NUMBER.test(line);

/** A number standing as a word ("12", "3.5%", "(40)"): a row's datum. A symbol's index or a formula in a header's cell ("f0", "R1", "1/τ") is none. */
const statesFigure = (line: string) => /(?:^|[\s(])[-−–+]?[$€£]?\d[\d.,:/%–-]*(?=$|[\s),;])/u.test(line);

/** More numbers than words: a row of data or of a matrix, not a title ("Week 5" is one of each). */
const mostlyFigures = (line: string) => (line.match(/\d+(?:[.,]\d+)*/g)?.length ?? 0) > (line.match(/\p{L}{2,}/gu)?.length ?? 0);

/** A part's letter or numeral opening a line, before its words ("(b) ", "iii) "); the letter or numeral is captured. */
const PART_LABEL = /^\s*\(?([a-z]|[ivx]{1,4})\)\s+(?=\S)/i;

/** A numbered item's label: one or two capitalised words and the item's number ("Worked Example 2.1"); its noun is captured. */
const ITEM_LABEL = String.raw`(?:\p{Lu}\p{L}*\s+)?(\p{Lu}\p{L}*)\s+\d+(?:\.\d+)*`;
/** A numbered item's title opening a line: "Example 9.1 (Cereal weights).", "Worked Example 2.1 — …", "Definition 3.2 (…)", "Problem 4 · Beam reactions", "Task 2. Survey design", "Problem 3 Train leaving a station", or one numbered by a code ("B3 Kiln hire", "Q2 — Yields"), its letter the noun. */
const ITEM_TITLE = new RegExp(String.raw`^(?:${ITEM_LABEL}|(\p{Lu})\d{1,2})(?:\s*(?:\(|\p{Pd}|:|·|\.\s)|\s+\p{Lu}\p{Ll})`, "u");
const BARE_ITEM_LABEL = new RegExp(String.raw`^${ITEM_LABEL}[.:]?$`, "u");

/** A numbered item's label alone ("Table 2.4.", "Worked Example 3"): the caption or the lines after it say what the item holds. */
export const isBareItemLabel = (text: string) => BARE_ITEM_LABEL.test(text);

/** The noun a numbered item's title numbers ("step" of "Step 2: …", "example" of "Worked Example 4.2 — …"), or null for another title. */
export const itemNounOf = (title: string): string | null => {
  const label = ITEM_TITLE.exec(title);
  return label ? (label[1] ?? label[2]).toLowerCase() : null;
};

/**
 * The titles of the sections of a text, in order: a short line opening its block (a heading, a
 * table's header row), or a numbered item's title opening its block, up to its first sentence's
 * end ("Project 2 — …" inside a block is a row of a table, not a title). What a section's title
 * names, each line under it is about. `rows` marks a table's header row.
 */
export function sectionTitles(text: string): Array<Span & { rows?: true }> {
  const lines = linesOf(text);
  return lines.flatMap((line, i) => {
    if (headsRows(lines, i)) return [{ start: line.start, end: line.end, rows: true as const }];
    if (line.blank || !(i === 0 || lines[i - 1].blank)) return [];
    if (numberedHeading(lines, i)) return [{ start: line.start, end: line.end }];
    // A part's heading alone on its line ("(b) Profit at P = 30 [2]") titles the working under it; a part that says something ("(b) the kiln is shared.") is an item of a list.
    const part = PART_LABEL.exec(line.text);
    if (part) return isLabelLike(line.text.slice(part[0].length)) && !mostlyFigures(line.text) ? [{ start: line.start, end: line.end }] : [];
    const label = ITEM_TITLE.exec(line.text);
    if (label) {
      const close = line.text.slice(label[0].length).search(/[.!?](?:\s|$)/);
      return [{ start: line.start, end: close < 0 ? line.end : line.start + label[0].length + close + 1 }];
    }
    // A lead-in ("Test statistic:") announces the lines under it, not a section; a line of figures ("4 1 2 3", a matrix's row) is data.
    return isLabelLike(line.text) && !isInlineLabel(line.text) && !isLeadIn(line.text) && !mostlyFigures(line.text) ? [{ start: line.start, end: line.end }] : [];
  });
}

/** "5. Assessment tasks" alone in its block, the block under it not an item of a list: a numbered section's heading, not a list item. */
function numberedHeading(lines: readonly Line[], i: number): boolean {
  const next = lines.slice(i + 1).find((l) => !l.blank);
  return NUMBERED.test(lines[i].text) && !!lines[i + 1]?.blank && isLabelLike(lines[i].text.replace(NUMBERED, "")) && !(next && isBullet(next.text));
}

/** A row of a table that opens with its figure ("5 Sep 22–26 …", "10 Nov 4–7 …"). */
const opensWithFigure = (line: Line) => !line.blank && /^\d/.test(line.text);

/** A table's header row over rows that open with figures: a line of words without figures, the two lines under it rows ("Week Dates Topic" over "1 Sep 2 …"). */
function headsRows(lines: readonly Line[], i: number): boolean {
  const under = lines.slice(i + 1, i + 3);
  return !lines[i].blank && !statesFigure(lines[i].text) && isLabelLike(lines[i].text, 2 * MAX_LABEL_WORDS) && under.length === 2 && under.every(opensWithFigure);
}

/** A passage's first lines before any blank one, two at most: the rows that prove a header left above a chunk boundary. */
export function openingLines(text: string): string {
  const lines = text.split("\n");
  const gap = lines.findIndex((l) => !/[\p{L}\p{N}]/u.test(l));
  return lines.slice(0, Math.min(2, gap < 0 ? lines.length : gap)).join("\n");
}

/**
 * Whether a text ends inside a table's rows, under its header row: the passage after it goes on
 * with rows of that table. `next` is that passage: its opening rows count with the text's, since a
 * chunk boundary may leave a single row under the header.
 */
export function endsInRows(text: string, next = ""): boolean {
  // The text's own trailing line break (a chunk starts on a new line) ends no table.
  const own = linesOf(text.replace(/\n[^\S\n]*$/, ""));
  const opening = openingLines(next);
  const lines = opening ? [...own, ...linesOf(opening)] : own;
  let i = lines.length - 1;
  while (i >= 0 && opensWithFigure(lines[i])) i--;
  return i >= 0 && i < lines.length - 1 && headsRows(lines, i);
}

/**
 * The table a page opens inside: the previous page's text from the header row of the table it
 * ends in, when everything above on this page is rows of it (a wrapped cell's tail may open the
 * page); else "".
 */
export function tableCarriedOver(previousPage: string, above: string): string {
  if (!endsInRows(previousPage) || !linesOf(above).every((l, k) => l.blank || k === 0 || opensWithFigure(l))) return "";
  const header = sectionTitles(previousPage).at(-1);
  return header ? previousPage.slice(header.start) : "";
}

/** A worked item's statement is at most this long: its givens, not its working. */
const MAX_STATEMENT_CHARS = 600;

/**
 * Where a section's title stops saying what its lines are about: a numbered item's title
 * ("Problem 2 — Home loan") with the paragraph that states the item ("Given: … borrow $420,000 …",
 * the rest of the title's line or the line under it), whose working below answers in other words;
 * any other title alone.
 */
export function sectionTitleEnd(text: string, title: Span): number {
  if (!itemNounOf(text.slice(title.start, title.end))) return title.end;
  const lines = linesOf(text);
  const at = lines.findIndex((l) => l.end >= title.end);
  const statement = lines[at] && lines[at].end > title.end ? lines[at] : lines.find((l, k) => k > at && !l.blank);
  return statement ? Math.min(statement.end, title.end + MAX_STATEMENT_CHARS) : title.end;
}

/**
 * The last section title of the page before, when the page's text above a passage names none: a
 * section runs on over the page break ("Exercise 4 — Kiln costs" on one page, its working on the
 * next), so its title, and a worked item's statement, still say what the lines are about. Where
 * the page opens with titles but no numbered item's ("(b) Profit at P = 30" under "Question 6 — …"),
 * the page before's last numbered item runs on around them.
 */
export function sectionCarriedOver(previousPage: string, above: string): string {
  const titlesAbove = sectionTitles(above);
  const carried = sectionTitles(previousPage).filter((t) => !titlesAbove.length || itemNounOf(previousPage.slice(t.start, t.end)));
  const title = titlesAbove.some((t) => itemNounOf(above.slice(t.start, t.end))) ? undefined : carried.at(-1);
  return title ? previousPage.slice(title.start, sectionTitleEnd(previousPage, title)) : "";
}

/** The letter or numeral of a part's title ("b" of "(b) Profit at P = 30"), lowercased, or undefined for another title: a part's lines are about its item too. */
export const partLetterOf = (title: string): string | undefined => PART_LABEL.exec(title)?.[1].toLowerCase();

/** Every unit of a passage, in text order, without duplicates. `continuesRows`: the passage opens inside a table whose header row is above it, so its first block's lines that open with a figure are rows. */
export function answerUnits(annotated: Annotated, continuesRows = false): Unit[] {
  const { text, sentences } = annotated;
  const lines = linesOf(text);
  const units: Unit[] = [];
  const seen = new Set<string>();
  const add = (kind: UnitKind, start: number, end: number, context: Span[] = []) => {
    if (end <= start || !/[\p{L}\p{N}]/u.test(text.slice(start, end))) return;
    const key = `${start}:${end}`;
    if (seen.has(key)) return;
    seen.add(key);
    units.push({ kind, start, end, context });
  };

  const onlyData = (span: Span) => /\d/.test(text.slice(span.start, span.end)) && !annotated.tokens.some((t) => t.start >= span.start && t.end <= span.end && (t.pos === "VERB" || t.pos === "AUX"));

  // Blocks: runs of non-blank lines.
  let heading: Span | null = null;
  const blockHeaders = new Map<number, Span | null>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.blank) continue;
    const blockStart = i === 0 || lines[i - 1].blank;
    let blockEnd = i;
    while (blockEnd + 1 < lines.length && !lines[blockEnd + 1].blank) blockEnd++;
    const first = lines[blockStartIndex(lines, i)];
    const headerContext: Span[] = heading && heading.start < line.start ? [heading] : [];

    // Sentences inside the line, or the line itself.
    const inLine = sentences
      .map((s) => ({ start: Math.max(s.start, line.start), end: Math.min(s.end, line.end) }))
      .filter((s) => s.end - s.start > 1 && s.start < line.end && s.end > line.start);
    // A line of several sentences is offered sentence by sentence: quoting the whole paragraph would answer by volume.
    const multiSentence = inLine.length > 1;
    // A lead-in with lines to announce is quoted with them (below), never alone: "… the following items:" says nothing by itself.
    const leadIn = isLeadIn(line.text);
    let nextLine = blockEnd + 1;
    if (leadIn) while (nextLine < lines.length && lines[nextLine].blank) nextLine++;
    const announces = leadIn && (blockEnd > i || nextLine < lines.length);
    // A sentence that opens by pointing back ("It was …", "This rule …") is quoted with the sentence it points to: alone, its claim would not say what it is about.
    if (multiSentence)
      inLine.forEach((s, k) => {
        if (!(announces && k === inLine.length - 1)) add("sentence", k > 0 && opensWithAnaphor(annotated.tokens, s) ? inLine[k - 1].start : s.start, s.end, headerContext);
      });
    // A table row under the block's header row: the first line is a short label line (or a longer header over rows of figures) and at least two lines below it are not prose.
    const below = lines.slice(blockStartIndex(lines, i) + 1, blockEnd + 1);
    // A header row names at least two columns: one word over lines ("Announcements", "Flags") titles them, as a label or heading does.
    const header = (isLabelLike(first.text) && wordCount(first.text) >= MIN_HEADER_WORDS) || isHeaderOverFigures(first.text, below);
    // A header row set apart by a blank line, over a block of lines that each hold a figure: every line of the block is a row under it.
    const from = blockStartIndex(lines, i);
    // The same for every line of the block: looked up once.
    if (!blockHeaders.has(from)) blockHeaders.set(from, detachedHeader(lines, from, blockEnd) ?? wrappedHeader(lines, from, blockEnd) ?? headerOverBlocks(lines, from));
    const detached = blockHeaders.get(from) ?? null;
    // Rows a boundary cut from their header: the passage's first blocks, after a wrapped cell's tail a page break left at its top.
    const cutRows = continuesRows && lines.slice(0, blockStartIndex(lines, i)).every((l, k) => l.blank || k === 0 || opensWithFigure(l));
    const tableRow = (cutRows && opensWithFigure(line)) || (!TERMINAL.test(line.text) && !isBullet(line.text) && (detached !== null || (!blockStart && header && below.filter((l) => !TERMINAL.test(l.text)).length >= 2)));
    const rowHeader = detached ?? first;
    const lineKind: UnitKind = tableRow ? "table_row" : isInlineLabel(line.text) ? "label_value" : isBullet(line.text) ? "list_item" : TERMINAL.test(line.text) ? "sentence" : "line";
    const lineContext = cutRows ? [] : tableRow ? [{ start: rowHeader.start, end: rowHeader.end }] : lineKind === "list_item" ? listContext(lines, i, headerContext) : headerContext;
    // A short line whose later sentences are only data (a figure or code, no verb: "Barrow Library, D295 .Q56.") is one entry, a reading-list item or a record: quoted whole too.
    const entry = multiSentence && wordCount(line.text) <= MAX_ENTRY_WORDS && inLine.slice(1).every(onlyData);
    if (!announces && (!multiSentence || entry || lineKind === "label_value" || lineKind === "list_item" || lineKind === "table_row")) add(lineKind, line.start, line.end, lineContext);

    // A sentence the printout broke across a blank line ("… will instead be", blank, "held on Wednesday …"): its two halves are quoted as one.
    const above = blockStart && i > 1 ? lines[i - 2] : undefined;
    if (above && !above.blank && /[\p{Ll},]$/u.test(above.text) && /^\p{Ll}/u.test(line.text)) {
      const opening = sentences.findLast((x) => x.start < above.end && x.end > above.start);
      const closing = sentences.find((x) => x.start < line.end && x.end > line.start);
      add("sentence", Math.max(above.start, opening?.start ?? above.start), Math.min(line.end, closing?.end ?? line.end), headerContext);
    }
    // A line that opens with a verb in the third person ("Closes Friday at noon", "Runs until week 9") has the subject of the line above: quoted with that line too.
    if (!blockStart && opensWithVerb(annotated.tokens, line)) add(lineKind === "table_row" ? "line" : lineKind, lines[i - 1].start, line.end, lineContext);

    // A label or lead-in with what follows it in the block; not inside a table, where the next line is another row, not this one's value.
    const inTable = cutRows || (header && below.filter((l) => !TERMINAL.test(l.text) && !isBullet(l.text)).length >= 2);
    if (blockEnd > i && !(inTable && !isLeadIn(line.text)) && (isLabelLike(line.text) || isLeadIn(line.text))) {
      const next = lines[i + 1];
      add(isLeadIn(line.text) ? "lead_in" : "label_value", line.start, next.end, headerContext);
      // A heading over a list ("TA", then the name, email and room, one bullet each) announces the list as a lead-in does.
      let last = isLeadIn(line.text) ? Math.min(blockEnd, i + MAX_ANNOUNCED_LINES) : i + 1;
      if (!isLeadIn(line.text) && isBullet(next.text)) while (last < Math.min(blockEnd, i + MAX_ANNOUNCED_LINES) && isBullet(lines[last + 1].text)) last++;
      if (last > i + 1) add("lead_in", line.start, lines[last].end, headerContext);
    }
    // A lead-in alone in its block ("X describes it as:", a blank line, then the words) announces the next block's first sentence, or its first lines.
    if (blockEnd === i && leadIn) {
      const j = nextLine;
      if (j < lines.length) {
        const firstSentence = sentences.find((s) => s.end > lines[j].start && s.start < lines[j].end);
        add("lead_in", line.start, Math.min(lines[j].end, firstSentence?.end ?? lines[j].end), headerContext);
        let nextEnd = j;
        while (nextEnd + 1 < lines.length && !lines[nextEnd + 1].blank && nextEnd - j + 1 < MAX_ANNOUNCED_LINES) nextEnd++;
        if (nextEnd > j) add("lead_in", line.start, lines[nextEnd].end, headerContext);
      }
    }
    // A short line alone in its block, followed by a blank line, heads the blocks below it.
    if (blockStart && blockEnd === i && isLabelLike(line.text)) heading = { start: line.start, end: line.end };
    else if (blockStart && isLabelLike(line.text) && !isInlineLabel(line.text)) heading = { start: line.start, end: line.end };
  }
  return units.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The span's first word is a pronoun or demonstrative that refers back ("It", "They", "This method"). */
function opensWithAnaphor(tokens: readonly TextToken[], span: Span): boolean {
  const first = tokens.find((t) => t.start >= span.start && t.pos !== "SPACE" && t.pos !== "PUNCT");
  return !!first && first.start < span.end && ANAPHORS.has(first.text.toLowerCase()) && (first.pos === "PRON" || first.pos === "DET");
}

/** The span opens with a verb in the third person singular, its subject left out: "Closes Friday at noon" (not "Discuss the results", an imperative). */
function opensWithVerb(tokens: readonly TextToken[], span: Span): boolean {
  // Past a bullet glyph the tagger reads as a word of its own.
  const first = tokens.find((t) => t.start >= span.start && t.pos !== "SPACE" && t.pos !== "PUNCT" && !BULLET.test(t.text + " "));
  return !!first && first.start < span.end && first.pos === "VERB" && /[^s]s$/i.test(first.text);
}

function blockStartIndex(lines: Line[], i: number): number {
  let j = i;
  while (j > 0 && !lines[j - 1].blank) j--;
  return j;
}

/** The header row of a block of figures (lines from..to, each holding a number) standing alone just above it, across a blank line: a short line of words naming at least two columns. */
function detachedHeader(lines: Line[], from: number, to: number): Line | null {
  if (to - from + 1 < 2 || !lines.slice(from, to + 1).every((l) => /\d/.test(l.text))) return null;
  let j = from - 1;
  while (j >= 0 && lines[j].blank) j--;
  if (j < 0 || j === from - 1 || (j > 0 && !lines[j - 1].blank)) return null;
  const above = lines[j];
  return isLabelLike(above.text) && wordCount(above.text) >= MIN_HEADER_WORDS && !statesFigure(above.text) ? above : null;
}

/**
 * The header row of a block of rows (lines from..to, each opening with a figure) whose cells wrap:
 * the printout breaks it into blocks of short lines ("Closing book\nvalue", blank, "Witness\ncone"),
 * none a header alone. Read upwards from the rows, block by block, while a block holds two lines or
 * more, each of words without figures (a caption or heading above is one line); together they name
 * at least MIN_SPREAD_HEADER_WORDS words.
 */
function wrappedHeader(lines: Line[], from: number, to: number): Span | null {
  if (to - from + 1 < 2 || !lines.slice(from, to + 1).every(opensWithFigure)) return null;
  let top = -1;
  let bottom = -1;
  let words = 0;
  const above = (i: number) => {
    let j = i - 1;
    while (j >= 0 && lines[j].blank) j--;
    return j < i - 1 ? j : -1;
  };
  for (let end = above(from); end >= 0; ) {
    const start = blockStartIndex(lines, end);
    const block = lines.slice(start, end + 1);
    if (block.length < 2 || !block.every((l) => isLabelLike(l.text) && !statesFigure(l.text) && !SECTION_NUMBER.test(l.text))) break;
    if (bottom < 0) bottom = end;
    top = start;
    words += block.reduce((n, l) => n + wordCount(l.text), 0);
    end = above(start);
  }
  return top >= 0 && words >= MIN_SPREAD_HEADER_WORDS ? { start: lines[top].start, end: lines[bottom].end } : null;
}

/** How many lines above a row its table's header row may stand, across the blocks a wrapped cell splits rows into. */
const MAX_ROWS_ABOVE = 24;
/** A header row of a table whose rows the printout set apart by blank lines names at least this many columns ("Role Name Email Office Office hours"). */
const MIN_SPREAD_HEADER_WORDS = 4;

/**
 * The header row of a table whose rows a printout cuts into blocks (a wrapped cell ends in a
 * blank line): a line of at least MIN_SPREAD_HEADER_WORDS words without figures, alone in its
 * block, with nothing but non-prose lines between it and the block at `from`, at least one of
 * them or the block's first line holding a figure or an address (a row's data).
 */
function headerOverBlocks(lines: Line[], from: number): Line | null {
  let data = /\d|@/.test(lines[from].text);
  for (let j = from - 1, seen = 0; j >= 0 && seen <= MAX_ROWS_ABOVE; j--) {
    const l = lines[j];
    if (l.blank) continue;
    seen++;
    const alone = (j === 0 || lines[j - 1].blank) && (j + 1 >= lines.length || lines[j + 1].blank);
    if (alone && isLabelLike(l.text) && wordCount(l.text) >= MIN_SPREAD_HEADER_WORDS && !statesFigure(l.text)) return data ? l : null;
    if (TERMINAL.test(l.text) || isBullet(l.text) || SECTION_NUMBER.test(l.text)) return null;
    if (/\d|@/.test(l.text)) data = true;
  }
  return null;
}

/** A list item's context: its list's lead-in in the block, or, for a list that opens its block, the heading above it ("Materials", a blank line, then the items). */
function listContext(lines: Line[], i: number, headerContext: Span[]): Span[] {
  const leadIn = leadInOf(lines, i);
  return leadIn.length ? leadIn : headerContext;
}

/** The lead-in of the list a bullet line belongs to: the nearest line above it in its block that ends with a colon, or the block's first line. */
function leadInOf(lines: Line[], i: number): Span[] {
  for (let j = i - 1; j >= 0 && !lines[j].blank; j--) {
    if (!isBullet(lines[j].text)) return [{ start: lines[j].start, end: lines[j].end }];
  }
  return [];
}

/**
 * A claim's display text: the quote without bullet glyphs, its lines joined into one reading —
 * a label or heading line gets a colon ("Office Hours: Tuesdays 2–4"), list lines a semicolon
 * ("parsing; type checking"). The stored quote keeps its glyphs and line breaks.
 */
export function displayText(quote: string): string {
  const raw = quote.split("\n").filter((l) => /[\p{L}\p{N}]/u.test(l));
  const lines = raw.map((l) => l.replace(BULLET, "").replace(/\p{Co}/gu, "").replace(/\s+/g, " ").trim());
  let out = lines[0] ?? "";
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1];
    const joiner = /[.?!:;,]["”’)]*$/u.test(prev) ? " " : i === 1 && isLabelLike(raw[0]) ? ": " : "; ";
    out += joiner + lines[i];
  }
  return out.trim();
}
