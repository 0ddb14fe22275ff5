import { normalizeText } from "./normalize";
import { DEFAULT_THREAD_HEAP_MB, isPdfReadError, readPdfText, type TextItem } from "./pdf-threads";
import type { ExtractState, ExtractedPage } from "./types";
import { StageError } from "./errors";

export type ExtractFailure = "not_pdf" | "truncated" | "corrupt" | "encrypted" | "no_pages" | "no_text" | "too_many_pages" | "over_memory";

/** Limits on reading one PDF (MAX_PDF_PAGES, INGEST_READER_HEAP_MB) and a signal that stops it. */
export interface ReadBudget {
  maxPages?: number;
  heapMb?: number;
  signal?: AbortSignal;
}

/** The PDF cannot be turned into pages; `reason` says why in words a person can act on. */
export class ExtractError extends StageError {
  override readonly name = "ExtractError";
  readonly stage = "extract";
  constructor(
    readonly failure: ExtractFailure,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause);
  }
}

export function isExtractError(e: unknown): e is ExtractError {
  return e instanceof ExtractError;
}

interface Line {
  y: number;
  x0: number;
  x1: number;
  size: number;
  text: string;
  /** Has a wide gap between items: a table row, never merged with its neighbours. */
  tabular: boolean;
  pendingSpace: boolean;
}

/** Checks the bytes, not the file name: a PDF starts with %PDF- and ends with %%EOF. */
export function sniffPdf(bytes: Uint8Array): void {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString("latin1");
  if (!head.includes("%PDF-")) {
    throw new ExtractError("not_pdf", "This file is not a PDF (its contents do not start with a PDF header).");
  }
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - 2048))).toString("latin1");
  if (!tail.includes("%%EOF")) {
    throw new ExtractError("truncated", "This PDF is truncated: the end of the file is missing. Upload the complete file.");
  }
}

/**
 * extract: PDF bytes → one normalised text per physical page, with printed labels kept apart.
 * Never returns a page out of order; throws ExtractError for files it cannot read.
 */
export async function extractPdf(
  bytes: Uint8Array,
  { onPage, threads, budget = {} }: { onPage?: (done: number, total: number) => void; threads?: number; budget?: ReadBudget } = {},
): Promise<ExtractState> {
  sniffPdf(bytes);
  let text;
  try {
    text = await readPdfText(bytes, { threads, onPage, ...budget });
  } catch (e) {
    if (budget.signal?.aborted && e === budget.signal.reason) throw e;
    throw readFailure(e, budget);
  }
  const { numPages: pageCount, labels } = text;
  if (pageCount === 0) throw new ExtractError("no_pages", "This PDF has no pages.");
  const pages: ExtractedPage[] = [];
  const pagesWithoutText: number[] = [];
  for (let n = 1; n <= pageCount; n++) {
    const pageText = normalizeText(layoutText(text.pages[n - 1]));
    if (!/[\p{L}\p{N}]/u.test(pageText)) pagesWithoutText.push(n);
    const label = labels?.[n - 1]?.trim() || null;
    pages.push({ pdfPage: n, pageLabel: label && label !== String(n) ? label : null, text: pageText });
  }
  if (pagesWithoutText.length === pageCount) {
    throw new ExtractError(
      "no_text",
      `No selectable text on ${describePages(pagesWithoutText)}: it looks scanned. OCR is not supported; upload a PDF with a text layer.`,
    );
  }
  return { pageCount, pages, pagesWithoutText };
}

function readFailure(e: unknown, budget: ReadBudget): ExtractError {
  const outOfMemory = (e as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY" || (isPdfReadError(e) && e.reason === "out_of_memory");
  if (outOfMemory) {
    return new ExtractError("over_memory", `Reading this PDF needed more than its memory budget (${budget.heapMb ?? DEFAULT_THREAD_HEAP_MB} MB). Split it into smaller files.`, e);
  }
  if (!isPdfReadError(e)) {
    return new ExtractError("corrupt", `This PDF could not be read: the PDF reader stopped on it (${(e as Error).message}).`, e);
  }
  if (e.reason === "page_limit") {
    const pages = Number(e.message);
    return new ExtractError("too_many_pages", `This PDF has ${pages.toLocaleString("en")} pages; the limit is ${(budget.maxPages ?? pages).toLocaleString("en")}. Split it into smaller files.`, e);
  }
  if (e.reason === "password") {
    return new ExtractError("encrypted", "This PDF is password-protected. Upload a copy without a password.", e);
  }
  if (e.page !== null) {
    return new ExtractError("corrupt", `Page ${e.page} of this PDF is damaged and cannot be read (${e.message}).`, e);
  }
  return new ExtractError("corrupt", `This PDF is damaged and cannot be read (${e.message}).`, e);
}

/** "page 3", "pages 1–4", "pages 2, 5–7". */
export function describePages(nums: number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < nums.length; ) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
    runs.push(i === j ? `${nums[i]}` : `${nums[i]}–${nums[j]}`);
    i = j + 1;
  }
  return `${nums.length === 1 ? "page" : "pages"} ${runs.join(", ")}`;
}

/**
 * Rebuilds reading text from positioned items: items on one baseline form a line (so table rows
 * and column lines keep their words together), a line that fills its column continues into the
 * next, and a larger vertical gap starts a paragraph.
 */
function layoutText(items: TextItem[]): string {
  const lines: Line[] = [];
  let cur: Line | undefined;
  for (const item of items) {
    const x = item.transform[4];
    const y = item.transform[5];
    const size = Math.hypot(item.transform[2], item.transform[3]) || item.height || 10;
    // Whitespace-only items span the gaps between table cells: they mark a space but must not
    // widen the line, or the cell gap that makes a row tabular would never be measured.
    if (item.str.trim()) {
      if (cur && Math.abs(cur.y - y) <= size * 0.5 && x >= cur.x0 - size) {
        const gap = x - cur.x1;
        const needsSpace = (gap > size * 0.15 || cur.pendingSpace) && !cur.text.endsWith(" ") && !item.str.startsWith(" ");
        cur.text += (needsSpace ? " " : "") + item.str;
        if (gap > size * 1.5) cur.tabular = true;
        cur.x1 = Math.max(cur.x1, x + item.width);
        cur.pendingSpace = false;
      } else {
        cur = { y, x0: x, x1: x + item.width, size, text: item.str, tabular: false, pendingSpace: false };
        lines.push(cur);
      }
    } else if (item.str && cur) {
      cur.pendingSpace = true;
    }
    if (item.hasEOL) cur = undefined;
  }
  if (lines.length === 0) return "";

  // The right edge of the text block a line belongs to (consecutive lines, same left edge, no
  // paragraph gap): a line reaching it wraps into the next. Block-local, so a full-width
  // paragraph above two columns does not make every column line look short.
  const blockOf = new Array<number>(lines.length).fill(0);
  const blockRight: number[] = [lines[0].x1];
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1];
    const l = lines[i];
    const vgap = prev.y - l.y;
    const continues = Math.abs(l.x0 - prev.x0) < prev.size * 2 && vgap > 0 && vgap <= prev.size * 1.9;
    blockOf[i] = continues ? blockOf[i - 1] : blockRight.length;
    if (continues) blockRight[blockOf[i]] = Math.max(blockRight[blockOf[i]], l.x1);
    else blockRight.push(l.x1);
  }
  const columnRight = lines.map((_, i) => blockRight[blockOf[i]]);
  let out = lines[0].text.trim();
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1];
    const line = lines[i];
    const text = line.text.trim();
    if (!text) continue;
    const vgap = prev.y - line.y;
    const paragraphBreak = vgap > prev.size * 1.9 || vgap < -prev.size * 0.5;
    const prevFills = prev.x1 >= columnRight[i - 1] - prev.size * 4;
    const startsItem = /^([•\-–*▪◦●]|\d+[.)]\s|[a-z][.)]\s)/.test(text);
    const sameColumn = Math.abs(line.x0 - prev.x0) < prev.size * 2;
    if (paragraphBreak) out += "\n\n";
    else if (prevFills && sameColumn && !startsItem && !prev.tabular && !line.tabular ) out += out.endsWith("-") ? "\n" : " ";
    else out += "\n";
    out += text;
  }
  return out;
}
