/**
 * A small, deterministic PDF writer on pdf-lib for the demo course and for test fixtures.
 *
 * Layout: US Letter, 1-inch margins, Helvetica (a standard font, so text must be WinAnsi),
 * paragraphs word-wrapped into real lines and justified like typeset course material, a printed
 * page number (the page label where labels are defined) in the footer. Content that does not fit
 * on its page is an error rather than a silently added page, so page numbers in a spec are exact.
 */
import { encryptPDF } from "@pdfsmaller/pdf-encrypt-lite";
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFFont,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFObject,
  PDFPage,
  StandardFonts,
  rgb,
  setWordSpacing,
} from "pdf-lib";

export type LabelStyle = "D" | "r" | "R" | "a" | "A";

export interface PageLabelRange {
  /** 0-based index of the first physical page of the range. */
  startPage: number;
  /** D decimal, r/R lower/upper roman, a/A lower/upper letters (PDF 32000-1, 12.4.2). */
  style: LabelStyle;
  prefix?: string;
  /** Number of the first page of the range; 1 when omitted. */
  start?: number;
}

export type Block =
  | { kind: "heading" | "paragraph" | "bullet"; text: string }
  | { kind: "table"; rows: string[][] }
  /** A description-list entry, as LaTeX sets one: the term in bold at the margin, its text after it, the wrapped lines indented (a hanging indent). */
  | { kind: "entry"; term: string; text: string }
  /** Two columns side by side; a blank line ("\n\n") separates paragraphs within a column. */
  | { kind: "columns"; left: string; right: string };

export interface PdfSpec {
  title?: string;
  pages: Array<{ blocks: Block[] }>;
  pageLabels?: PageLabelRange[];
}

/** The spec cannot be written: unencodable text, content that overflows its page, bad labels. */
export class PdfBuildError extends Error {
  override readonly name = "PdfBuildError";
}

// ─── Geometry (PDF points) ──────────────────────────────────────────────────────────────────

export const PAGE_WIDTH = 612;
export const PAGE_HEIGHT = 792;
const MARGIN = 72;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const TOP = PAGE_HEIGHT - MARGIN;
const BOTTOM = MARGIN;
const FOOTER_Y = 40;

const BODY = { size: 11, leading: 15, after: 9 };
const HEADING = { size: 15, leading: 19, before: 14, after: 4 };
const BULLET = { size: 11, leading: 15, after: 4, indent: 16, glyphIndent: 4 };
const TABLE = { size: 10, rowPitch: 17, pad: 6, before: 4, after: 14 };
const COLUMNS = { gutter: 24 };
const ENTRY = { indent: 27, gap: 8 };
const FOOTER_SIZE = 9;
/** Never stretch word gaps by more than this (points); looser lines stay ragged. */
const MAX_EXTRA_WORD_SPACE = 12;
/** Hyphenate the next word when justifying would add more than this per space (points). */
const HYPHENATE_ABOVE = 2.5;

// ─── Text that Helvetica can encode ─────────────────────────────────────────────────────────

/** Characters outside WinAnsi with a plain equivalent. Anything else unencodable is rejected. */
const REPLACEMENTS: Record<string, string> = {
  "\uFB00": "ff",
  "\uFB01": "fi",
  "\uFB02": "fl",
  "\uFB03": "ffi",
  "\uFB04": "ffl",
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2212": "-",
  "\u2032": "'",
  "\u2033": '"',
  "\u2190": "<-",
  "\u2192": "->",
  "\u21D2": "=>",
  "\u2264": "<=",
  "\u2265": ">=",
  "\u2260": "!=",
  "\u2248": "~",
};

/**
 * Text as it will be drawn: NFC, known substitutes applied, whitespace collapsed to single spaces.
 * Throws PdfBuildError naming the character, its code point and where it is.
 */
export function toWinAnsi(text: string, charset: ReadonlySet<number>, where: string): string {
  const out = text
    .normalize("NFC")
    .replace(/[\uFB00-\uFB04\u2010-\u2012\u2212\u2032\u2033\u2190\u2192\u21D2\u2264\u2265\u2260\u2248]/g, (c) => REPLACEMENTS[c] ?? c)
    .replace(/\s+/g, " ")
    .trim();
  for (const ch of out) {
    const cp = ch.codePointAt(0)!;
    if (!charset.has(cp)) {
      const hex = cp.toString(16).toUpperCase().padStart(4, "0");
      throw new PdfBuildError(
        `Helvetica (WinAnsi) cannot encode "${ch}" (U+${hex}) in ${where}: "${snippet(out)}". ` +
          `Use WinAnsi characters only (Latin-1 letters, – — ‘ ’ “ ” • … € are fine).`,
      );
    }
  }
  return out;
}

function snippet(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

// ─── Page labels ────────────────────────────────────────────────────────────────────────────

function roman(n: number): string {
  const table: Array<[number, string]> = [
    [1000, "m"], [900, "cm"], [500, "d"], [400, "cd"], [100, "c"], [90, "xc"],
    [50, "l"], [40, "xl"], [10, "x"], [9, "ix"], [5, "v"], [4, "iv"], [1, "i"],
  ];
  let out = "";
  for (const [value, digits] of table) for (; n >= value; n -= value) out += digits;
  return out;
}

/** a..z, then aa..zz, then aaa..zzz (the PDF convention, not spreadsheet columns). */
function letters(n: number): string {
  const letter = String.fromCharCode(97 + ((n - 1) % 26));
  return letter.repeat(Math.floor((n - 1) / 26) + 1);
}

function checkLabels(ranges: PageLabelRange[], pageCount: number): PageLabelRange[] {
  const sorted = [...ranges].sort((a, b) => a.startPage - b.startPage);
  if (sorted.length === 0) return sorted;
  if (sorted[0].startPage !== 0) {
    throw new PdfBuildError("Page labels must define a range starting at page index 0 (the PDF requires one for the first page).");
  }
  sorted.forEach((r, i) => {
    if (!Number.isInteger(r.startPage) || r.startPage < 0 || r.startPage >= pageCount) {
      throw new PdfBuildError(`Page label range starts at page index ${r.startPage}, outside the ${pageCount} pages of this PDF.`);
    }
    if (i > 0 && r.startPage === sorted[i - 1].startPage) {
      throw new PdfBuildError(`Two page label ranges start at page index ${r.startPage}.`);
    }
    if (r.start !== undefined && (!Number.isInteger(r.start) || r.start < 1)) {
      throw new PdfBuildError(`Page label range at page index ${r.startPage} has start ${r.start}; it must be an integer ≥ 1.`);
    }
  });
  return sorted;
}

/** The label a viewer shows for a 0-based page index under `ranges` (its physical number without ranges). */
export function formatPageLabel(pageIndex: number, ranges: PageLabelRange[] | undefined): string {
  if (!ranges || ranges.length === 0) return String(pageIndex + 1);
  const range = [...ranges].sort((a, b) => a.startPage - b.startPage).filter((r) => r.startPage <= pageIndex).pop();
  if (!range) return String(pageIndex + 1);
  const n = (range.start ?? 1) + pageIndex - range.startPage;
  const body =
    range.style === "D" ? String(n)
    : range.style === "r" ? roman(n)
    : range.style === "R" ? roman(n).toUpperCase()
    : range.style === "a" ? letters(n)
    : letters(n).toUpperCase();
  return (range.prefix ?? "") + body;
}

function writePageLabels(doc: PDFDocument, ranges: PageLabelRange[]): void {
  const nums: PDFObject[] = [];
  for (const r of ranges) {
    const dict = doc.context.obj({ S: PDFName.of(r.style) });
    if (r.prefix) dict.set(PDFName.of("P"), PDFHexString.fromText(r.prefix));
    if (r.start !== undefined && r.start !== 1) dict.set(PDFName.of("St"), PDFNumber.of(r.start));
    nums.push(PDFNumber.of(r.startPage), dict);
  }
  doc.catalog.set(PDFName.of("PageLabels"), doc.context.obj({ Nums: nums }));
}

// ─── Layout ─────────────────────────────────────────────────────────────────────────────────

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  charset: ReadonlySet<number>;
}

interface LaidLine {
  text: string;
  /** Extra points per space (PDF word spacing, Tw) that make the line reach the full width. */
  wordSpacing: number;
}

/** Greedy word wrap; every line but the last is justified to `width`. Over-long words are split. */
function wrap(text: string, font: PDFFont, size: number, width: number, justify: boolean): LaidLine[] {
  const measure = (s: string) => font.widthOfTextAtSize(s, size);
  const words: string[] = [];
  for (const word of text.split(" ").filter(Boolean)) {
    if (measure(word) <= width) {
      words.push(word);
      continue;
    }
    let piece = "";
    for (const ch of word) {
      if (piece && measure(piece + ch) > width) {
        words.push(piece);
        piece = "";
      }
      piece += ch;
    }
    if (piece) words.push(piece);
  }
  const lines: string[] = [];
  let current = "";
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    const candidate = current ? `${current} ${word}` : word;
    if (!current || measure(candidate) <= width) {
      current = candidate;
      continue;
    }
    // A long lowercase word that would leave a loose line is hyphenated, as a typesetter would.
    const split = justify ? hyphenate(current, word, measure, width) : null;
    if (split) {
      lines.push(`${current} ${split[0]}-`);
      current = split[1];
    } else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  return lines.map((line, i) => {
    const spaces = line.split(" ").length - 1;
    const extra = spaces > 0 ? (width - measure(line)) / spaces : 0;
    const last = i === lines.length - 1;
    return { text: line, wordSpacing: justify && !last && extra <= MAX_EXTRA_WORD_SPACE ? extra : 0 };
  });
}

/** [head, tail] of `word` so that `line head-` fills `width` tightly, or null when not worth it. */
function hyphenate(line: string, word: string, measure: (s: string) => number, width: number): [string, string] | null {
  const slack = width - measure(line);
  const spaces = line.split(" ").length - 1;
  if (spaces === 0 || slack / spaces <= HYPHENATE_ABOVE) return null;
  const m = /^([a-z]+)([.,;:!?)]?)$/.exec(word);
  if (!m || m[1].length < 7) return null;
  for (let cut = m[1].length - 3; cut >= 3; cut--) {
    if (!syllableBoundary(m[1], cut)) continue;
    const head = m[1].slice(0, cut);
    if (measure(`${line} ${head}-`) <= width) return [head, m[1].slice(cut) + m[2]];
  }
  return null;
}

const VOWEL = /[aeiouy]/;
const DIGRAPHS = new Set(["ch", "ck", "gh", "ph", "qu", "sh", "th", "wh", "wr"]);

/** A rough English syllable break before word[cut]: vowel|consonant-vowel or consonant|consonant-vowel. */
function syllableBoundary(word: string, cut: number): boolean {
  const [a, b, c] = [word[cut - 1], word[cut], word[cut + 1]];
  if (VOWEL.test(b) || !VOWEL.test(c) || a === "q") return false;
  return VOWEL.test(a) || !DIGRAPHS.has(a + b);
}

function drawLine(page: PDFPage, line: LaidLine, x: number, y: number, font: PDFFont, size: number): void {
  if (line.wordSpacing > 0) page.pushOperators(setWordSpacing(line.wordSpacing));
  page.drawText(line.text, { x, y, size, font, color: rgb(0, 0, 0) });
  if (line.wordSpacing > 0) page.pushOperators(setWordSpacing(0));
}

/** One block measured and ready to draw at a given top position. */
interface Placed {
  /** Space above the first line's top, skipped at the top of a page. */
  before: number;
  height: number;
  after: number;
  draw: (page: PDFPage, top: number) => void;
}

function placeBlock(block: Block, fonts: Fonts, where: string): Placed {
  switch (block.kind) {
    case "heading": {
      const lines = wrap(toWinAnsi(block.text, fonts.charset, where), fonts.bold, HEADING.size, CONTENT_WIDTH, false);
      return {
        before: HEADING.before,
        height: lines.length * HEADING.leading,
        after: HEADING.after,
        draw: (page, top) =>
          lines.forEach((l, i) => drawLine(page, l, MARGIN, top - HEADING.size - i * HEADING.leading, fonts.bold, HEADING.size)),
      };
    }
    case "paragraph": {
      const lines = wrap(toWinAnsi(block.text, fonts.charset, where), fonts.regular, BODY.size, CONTENT_WIDTH, true);
      return {
        before: 0,
        height: lines.length * BODY.leading,
        after: BODY.after,
        draw: (page, top) =>
          lines.forEach((l, i) => drawLine(page, l, MARGIN, top - BODY.size - i * BODY.leading, fonts.regular, BODY.size)),
      };
    }
    case "bullet": {
      const width = CONTENT_WIDTH - BULLET.indent;
      const lines = wrap(toWinAnsi(block.text, fonts.charset, where), fonts.regular, BULLET.size, width, true);
      return {
        before: 0,
        height: lines.length * BULLET.leading,
        after: BULLET.after,
        draw: (page, top) => {
          const y0 = top - BULLET.size;
          page.drawText("\u2022", { x: MARGIN + BULLET.glyphIndent, y: y0, size: BULLET.size, font: fonts.regular });
          lines.forEach((l, i) => drawLine(page, l, MARGIN + BULLET.indent, y0 - i * BULLET.leading, fonts.regular, BULLET.size));
        },
      };
    }
    case "entry": {
      const term = toWinAnsi(block.term, fonts.charset, where);
      const text = toWinAnsi(block.text, fonts.charset, where);
      const termWidth = fonts.bold.widthOfTextAtSize(term, BODY.size) + ENTRY.gap;
      const [first] = wrap(text, fonts.regular, BODY.size, CONTENT_WIDTH - termWidth, true);
      // The rest of the text, after the first line's words (its last word may have been hyphenated).
      const words = text.split(" ");
      const firstWords = first.text.split(" ");
      const last = firstWords[firstWords.length - 1];
      const cut = words[firstWords.length - 1] === last ? [] : [words[firstWords.length - 1].slice(last.length - 1)];
      const rest = [...cut, ...words.slice(firstWords.length)].join(" ");
      const lines = rest ? wrap(rest, fonts.regular, BODY.size, CONTENT_WIDTH - ENTRY.indent, true) : [];
      return {
        before: 0,
        height: (1 + lines.length) * BODY.leading,
        after: BODY.after,
        draw: (page, top) => {
          const y0 = top - BODY.size;
          page.drawText(term, { x: MARGIN, y: y0, size: BODY.size, font: fonts.bold });
          drawLine(page, first, MARGIN + termWidth, y0, fonts.regular, BODY.size);
          lines.forEach((l, i) => drawLine(page, l, MARGIN + ENTRY.indent, y0 - (i + 1) * BODY.leading, fonts.regular, BODY.size));
        },
      };
    }
    case "table":
      return placeTable(block.rows, fonts, where);
    case "columns":
      return placeColumns(block.left, block.right, fonts, where);
  }
}

function placeTable(rawRows: string[][], fonts: Fonts, where: string): Placed {
  if (rawRows.length === 0) throw new PdfBuildError(`The table in ${where} has no rows.`);
  const cols = Math.max(...rawRows.map((r) => r.length));
  const rows = rawRows.map((r, ri) =>
    Array.from({ length: cols }, (_, ci) => toWinAnsi(r[ci] ?? "", fonts.charset, `${where}, table row ${ri + 1}`)),
  );
  const fontOf = (ri: number) => (ri === 0 ? fonts.bold : fonts.regular);
  // Natural column widths, then stretched (or shrunk) to the full text width, like a word processor.
  const natural = Array.from({ length: cols }, (_, ci) =>
    Math.max(...rows.map((r, ri) => fontOf(ri).widthOfTextAtSize(r[ci], TABLE.size))) + 2 * TABLE.pad,
  );
  const total = natural.reduce((a, b) => a + b, 0);
  const widths = natural.map((w) => (w / total) * CONTENT_WIDTH);
  const cells = rows.map((r, ri) => r.map((text, ci) => wrap(text, fontOf(ri), TABLE.size, widths[ci] - 2 * TABLE.pad, false)));
  const rowLines = cells.map((r) => Math.max(1, ...r.map((c) => c.length)));
  const lineGap = TABLE.size + 3;
  const rowHeights = rowLines.map((n) => TABLE.rowPitch + (n - 1) * lineGap);
  const height = rowHeights.reduce((a, b) => a + b, 0);
  return {
    before: TABLE.before,
    height,
    after: TABLE.after,
    draw: (page, top) => {
      let y = top;
      const rule = (at: number, thickness: number) =>
        page.drawLine({ start: { x: MARGIN, y: at }, end: { x: MARGIN + CONTENT_WIDTH, y: at }, thickness, color: rgb(0.4, 0.4, 0.4) });
      rule(y, 0.8);
      cells.forEach((row, ri) => {
        const baseline = y - TABLE.size - (TABLE.rowPitch - TABLE.size) / 2 + 1;
        let x = MARGIN;
        row.forEach((lines, ci) => {
          lines.forEach((l, li) => drawLine(page, l, x + TABLE.pad, baseline - li * lineGap, fontOf(ri), TABLE.size));
          x += widths[ci];
        });
        y -= rowHeights[ri];
        rule(y, ri === 0 || ri === cells.length - 1 ? 0.8 : 0.3);
      });
    },
  };
}

function placeColumns(left: string, right: string, fonts: Fonts, where: string): Placed {
  const width = (CONTENT_WIDTH - COLUMNS.gutter) / 2;
  const layoutColumn = (text: string, side: string) =>
    text
      .split(/\n\s*\n/)
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => wrap(toWinAnsi(p, fonts.charset, `${where}, ${side} column`), fonts.regular, BODY.size, width, true));
  const columnHeight = (paras: LaidLine[][]) =>
    paras.reduce((h, lines, i) => h + lines.length * BODY.leading + (i > 0 ? BODY.after : 0), 0);
  const l = layoutColumn(left, "left");
  const r = layoutColumn(right, "right");
  const drawColumn = (page: PDFPage, paras: LaidLine[][], x: number, top: number) => {
    let y = top - BODY.size;
    for (const lines of paras) {
      for (const line of lines) {
        drawLine(page, line, x, y, fonts.regular, BODY.size);
        y -= BODY.leading;
      }
      y -= BODY.after;
    }
  };
  return {
    before: 0,
    height: Math.max(columnHeight(l), columnHeight(r)),
    after: BODY.after,
    // Column by column, as typesetters write them: the whole left column, then the right one.
    draw: (page, top) => {
      drawColumn(page, l, MARGIN, top);
      drawColumn(page, r, MARGIN + width + COLUMNS.gutter, top);
    },
  };
}

async function newDocument(title?: string): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  // Fixed metadata: the same spec always gives the same bytes.
  doc.setProducer("study-assistant lib/pdf/build");
  doc.setCreator("study-assistant lib/pdf/build");
  if (title) doc.setTitle(title);
  return doc;
}

async function loadFonts(doc: PDFDocument): Promise<Fonts> {
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  return { regular, bold, charset: new Set(regular.getCharacterSet()) };
}

/**
 * The lines a paragraph block is broken into on the page (hyphenated words end with "-"), so tests
 * can construct text that wraps in a known way.
 */
export async function paragraphLines(text: string): Promise<string[]> {
  const doc = await newDocument();
  const fonts = await loadFonts(doc);
  return wrap(toWinAnsi(text, fonts.charset, "paragraphLines"), fonts.regular, BODY.size, CONTENT_WIDTH, true).map((l) => l.text);
}

/** Writes `spec` as a PDF: one physical page per spec page, in order. */
export async function buildPdf(spec: PdfSpec): Promise<Uint8Array> {
  if (spec.pages.length === 0) throw new PdfBuildError("A PDF spec needs at least one page (use buildZeroPagePdf for the empty fixture).");
  const labels = spec.pageLabels?.length ? checkLabels(spec.pageLabels, spec.pages.length) : undefined;
  const doc = await newDocument(spec.title ? tidyMetadata(spec.title) : undefined);
  const fonts = await loadFonts(doc);
  spec.pages.forEach((pageSpec, pi) => {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    let cursor = TOP;
    let previousAfter = 0;
    pageSpec.blocks.forEach((block, bi) => {
      const where = `page ${pi + 1}, block ${bi + 1} (${block.kind})`;
      const placed = placeBlock(block, fonts, where);
      const top = bi === 0 ? cursor : cursor - Math.max(previousAfter, placed.before);
      if (top - placed.height < BOTTOM) {
        throw new PdfBuildError(
          `The content of page ${pi + 1} does not fit on one Letter page: block ${bi + 1} (${block.kind}) ends ` +
            `${Math.ceil(BOTTOM - (top - placed.height))} pt below the bottom margin. Move some blocks to another page.`,
        );
      }
      placed.draw(page, top);
      cursor = top - placed.height;
      // A list ends with paragraph spacing, so the text after it reads as a new paragraph.
      const next = pageSpec.blocks[bi + 1];
      previousAfter = block.kind === "bullet" && next?.kind !== "bullet" ? BODY.after : placed.after;
    });
    const footer = toWinAnsi(formatPageLabel(pi, labels), fonts.charset, `page ${pi + 1} footer`);
    const w = fonts.regular.widthOfTextAtSize(footer, FOOTER_SIZE);
    page.drawText(footer, { x: (PAGE_WIDTH - w) / 2, y: FOOTER_Y, size: FOOTER_SIZE, font: fonts.regular, color: rgb(0.3, 0.3, 0.3) });
  });
  if (labels) writePageLabels(doc, labels);
  return doc.save({ useObjectStreams: false });
}

/** Document metadata is a text string (any Unicode); only whitespace is tidied. */
function tidyMetadata(text: string): string {
  return text.normalize("NFC").replace(/\s+/g, " ").trim();
}

// ─── Fixtures for bad input ─────────────────────────────────────────────────────────────────

/**
 * A PDF of `pageCount` small pages with one line each, built fast (about 2 ms a page): for tests
 * of page limits and scheduling that need many pages, not realistic ones (buildLargePdf).
 */
export async function buildManyPagePdf(pageCount: number, topic = "topic"): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pageCount; i++) doc.addPage([300, 200]).drawText(`Reader page ${i} covers ${topic} ${i}.`, { x: 20, y: 100, size: 12, font });
  return doc.save();
}

/**
 * A valid one-page PDF of about `bytes` (upload-limit tests): the padding is an unreferenced
 * stream object, so the cross-reference table stays right and readers skip it.
 */
export async function buildPaddedPdf(bytes: number, text = `A handout of ${bytes} bytes.`): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text }] }] }));
  const base = (await doc.save({ useObjectStreams: false })).length;
  doc.context.register(doc.context.stream(new Uint8Array(Math.max(0, bytes - base - 100)).fill(0x20)));
  return doc.save({ useObjectStreams: false });
}

export const ENCRYPTED_FIXTURE_PASSWORD = "open-sesame";

/** A one-page PDF that needs a user password to open (RC4 128-bit). */
export async function buildEncryptedPdf(): Promise<Uint8Array> {
  const plain = await buildPdf({
    title: "Protected handout",
    pages: [{ blocks: [{ kind: "heading", text: "Protected handout" }, { kind: "paragraph", text: "This handout is protected by a password." }] }],
  });
  return encryptPDF(plain, ENCRYPTED_FIXTURE_PASSWORD, "owner-secret");
}

/** A "scan": `pages` pages with only drawn shapes (no text operators at all, not even a footer). */
export async function buildImageOnlyPdf(pages = 2): Promise<Uint8Array> {
  if (!Number.isInteger(pages) || pages < 1) throw new PdfBuildError(`buildImageOnlyPdf needs at least one page, got ${pages}.`);
  const doc = await newDocument("Scanned handout");
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    // Grey bars where lines of text would be on a scanned page, and a figure.
    for (let i = 0; i < 24; i++) {
      const width = CONTENT_WIDTH - ((i * 37 + p * 11) % 90);
      page.drawRectangle({ x: MARGIN, y: TOP - 20 - i * 16, width, height: 7, color: rgb(0.55, 0.55, 0.55) });
    }
    page.drawEllipse({ x: PAGE_WIDTH / 2, y: 180, xScale: 90, yScale: 60, borderColor: rgb(0.2, 0.2, 0.2), borderWidth: 2 });
    page.drawLine({ start: { x: MARGIN, y: 100 }, end: { x: PAGE_WIDTH - MARGIN, y: 100 }, thickness: 1 });
  }
  return doc.save({ useObjectStreams: false });
}

/**
 * A syntactically valid PDF whose page tree is empty (/Count 0). Written by hand so the bytes
 * (and the xref offsets) are exactly right whatever pdf-lib does with empty documents.
 */
export function buildZeroPagePdf(): Uint8Array {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [] /Count 0 >>",
    "<< /Title (Empty document) /Producer (study-assistant lib/pdf/build) >>",
  ];
  let body = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) body += `${String(o).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 3 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(body, "latin1"));
}

/** A readable PDF whose page tree points at a number instead of page `damagedPage` (1-based). */
export async function breakPage(bytes: Uint8Array, damagedPage: number): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes);
  const kids = doc.catalog.lookup(PDFName.of("Pages"), PDFDict).lookup(PDFName.of("Kids"), PDFArray);
  if (damagedPage < 1 || damagedPage > kids.size()) throw new PdfBuildError(`breakPage: the document has no page ${damagedPage}.`);
  kids.set(damagedPage - 1, PDFNumber.of(0));
  return doc.save();
}

/**
 * One page drawing `textObjects` one-letter text objects (a small file, a content stream that
 * inflates to about 33 bytes each): a reader that parses it needs memory in proportion.
 */
export async function buildHeavyPagePdf(textObjects: number): Promise<Uint8Array> {
  const doc = await newDocument("Heavy page");
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  page.node.setFontDictionary(PDFName.of("F1"), font.ref);
  page.node.set(PDFName.of("Contents"), doc.context.register(doc.context.flateStream("BT /F1 1 Tf 72 700 Td (a) Tj ET\n".repeat(textObjects))));
  return doc.save();
}

/** The first half of the bytes: what an interrupted upload leaves. */
export function truncate(bytes: Uint8Array): Uint8Array {
  return bytes.slice(0, Math.floor(bytes.length / 2));
}

/**
 * Keeps the header line and the final %%EOF but overwrites everything between them with
 * deterministic noise: the file still looks like a PDF by its bytes, yet holds no objects.
 */
export function corrupt(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  const headerEnd = out.indexOf(0x0a) + 1; // after "%PDF-1.x\n"
  const tail = Buffer.from(out).lastIndexOf("%%EOF");
  if (headerEnd <= 0 || tail < 0 || tail <= headerEnd) {
    throw new PdfBuildError("corrupt() needs a PDF with a header line and a %%EOF marker.");
  }
  let state = 0x2545_4f46;
  for (let i = headerEnd; i < tail; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    // Printable noise without the characters that would form PDF tokens ("obj", "<<", "%%EOF").
    out[i] = 0x41 + ((state >>> 16) % 26) + ((state >>> 8) & 1 ? 0 : 32);
  }
  return out;
}

// ─── Large realistic document (benchmarks) ──────────────────────────────────────────────────

/** A small deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Topic {
  title: string;
  subjects: string[];
  objects: string[];
}

const TOPICS: Topic[] = [
  {
    title: "Query Processing",
    subjects: ["the query optimiser", "a hash join", "the buffer manager", "an index scan", "the cost model", "a sort-merge join"],
    objects: ["the join order", "intermediate results", "disk pages", "selectivity estimates", "the execution plan", "sorted runs"],
  },
  {
    title: "Operating Systems",
    subjects: ["the scheduler", "a page fault handler", "the kernel", "a device driver", "the virtual memory system", "a system call"],
    objects: ["runnable processes", "the page table", "interrupt requests", "physical frames", "the file cache", "kernel stacks"],
  },
  {
    title: "Computer Networks",
    subjects: ["the congestion controller", "a router", "the transport layer", "a DNS resolver", "the link layer", "a load balancer"],
    objects: ["packet loss", "the routing table", "round-trip times", "cached records", "the sending window", "incoming connections"],
  },
  {
    title: "Statistics",
    subjects: ["the sample mean", "a confidence interval", "the test statistic", "a regression model", "the bootstrap", "a prior distribution"],
    objects: ["the population variance", "residual errors", "the null hypothesis", "sampling noise", "the posterior estimate", "outlying observations"],
  },
  {
    title: "Cell Biology",
    subjects: ["the cell membrane", "a ribosome", "the mitochondrion", "an enzyme", "the nucleus", "a signalling protein"],
    objects: ["amino acids", "the energy supply", "messenger RNA", "ion gradients", "the cell cycle", "metabolic pathways"],
  },
  {
    title: "Economic History",
    subjects: ["the textile industry", "a central bank", "the railway network", "an import tariff", "the labour market", "a trading company"],
    objects: ["regional prices", "the money supply", "agricultural output", "long-distance trade", "urban wages", "the balance of payments"],
  },
];

const VERBS = ["reduces", "determines", "depends on", "reorganises", "protects", "estimates", "limits", "records", "balances", "exposes"];
const ADVERBIALS = [
  "in most practical settings",
  "when the workload grows",
  "during the first phase",
  "under heavy contention",
  "at the end of each interval",
  "for every request it receives",
  "without any manual tuning",
  "as the textbook explains in detail",
  "in the example from last week",
  "with surprisingly little overhead",
];
const CONNECTIVES = ["However,", "In practice,", "As a result,", "For this reason,", "By contrast,", "In the simplest case,", "Later in the course,"];
const OBSERVATIONS = [
  "Students often confuse these two ideas on the first attempt.",
  "This trade-off appears again in the final project.",
  "The exercise sheet contains three worked examples of this step.",
  "A careful measurement usually settles the question.",
  "The lecture slides show the same situation as a diagram.",
  "Nothing in this argument depends on the particular numbers chosen.",
];

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function sentence(rand: () => number, topic: Topic): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
  const kind = rand();
  if (kind < 0.15) return pick(OBSERVATIONS);
  const core = `${pick(topic.subjects)} ${pick(VERBS)} ${pick(topic.objects)} ${pick(ADVERBIALS)}`;
  if (kind < 0.4) return `${pick(CONNECTIVES)} ${core}.`;
  if (kind < 0.55) return `${capitalise(core)}, because ${pick(topic.subjects)} ${pick(VERBS)} ${pick(topic.objects)}.`;
  return `${capitalise(core)}.`;
}

/** The section number and the unique sentence written on physical page `pdfPage` of buildLargePdf. */
export function largePdfPageFact(pdfPage: number): string {
  const topic = TOPICS[(pdfPage - 1) % TOPICS.length];
  return `Section ${pdfPage} of these notes on ${topic.title.toLowerCase()} was reviewed by tutor number ${1000 + ((pdfPage * 7919) % 9000)}.`;
}

/** The blocks of physical page `pdfPage` (1-based) of buildLargePdf: deterministic, varied per page. */
export function largePdfBlocks(pdfPage: number): Block[] {
  const rand = prng(pdfPage * 2_654_435_761);
  const topic = TOPICS[(pdfPage - 1) % TOPICS.length];
  const paragraph = (n: number) => Array.from({ length: n }, () => sentence(rand, topic)).join(" ");
  const blocks: Block[] = [
    { kind: "heading", text: `Section ${pdfPage}: ${topic.title}` },
    { kind: "paragraph", text: `${largePdfPageFact(pdfPage)} ${paragraph(4)}` },
    { kind: "paragraph", text: paragraph(5) },
  ];
  if (pdfPage % 5 === 0) {
    blocks.push(...Array.from({ length: 3 }, () => ({ kind: "bullet" as const, text: sentence(rand, topic) })));
  } else if (pdfPage % 7 === 0) {
    blocks.push({
      kind: "table",
      rows: [["Measure", "Before", "After"], ...topic.objects.slice(0, 3).map((o, i) => [capitalise(o), `${12 + i * 5 + (pdfPage % 9)}`, `${7 + i * 3}`])],
    });
  } else {
    blocks.push({ kind: "paragraph", text: paragraph(4) });
  }
  blocks.push({ kind: "paragraph", text: paragraph(3 + Math.floor(rand() * 3)) });
  return blocks;
}

/** A long document of realistic prose (one section per page) for the ingestion benchmark. */
export async function buildLargePdf(pageCount: number): Promise<Uint8Array> {
  if (!Number.isInteger(pageCount) || pageCount < 1) throw new PdfBuildError(`buildLargePdf needs at least one page, got ${pageCount}.`);
  return buildPdf({
    title: `Course reader (${pageCount} pages)`,
    pages: Array.from({ length: pageCount }, (_, i) => ({ blocks: largePdfBlocks(i + 1) })),
  });
}
