import { normalizeText } from "./normalize";
import { DEFAULT_THREAD_HEAP_MB, isPdfReadError, readPdfText } from "./pdf-threads";
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
 * `onPageText` gets each page's normalised text as soon as it is read, in no particular order.
 */
export async function extractPdf(
  bytes: Uint8Array,
  {
    onPage,
    onPageText,
    threads,
    budget = {},
  }: { onPage?: (done: number, total: number) => void; onPageText?: (pdfPage: number, text: string) => void; threads?: number; budget?: ReadBudget } = {},
): Promise<ExtractState> {
  sniffPdf(bytes);
  const normalized: string[] = [];
  const onText = (page: number, raw: string) => {
    normalized[page - 1] = normalizeText(raw);
    onPageText?.(page, normalized[page - 1]);
  };
  let text;
  try {
    text = await readPdfText(bytes, { threads, onPage, onText, ...budget });
  } catch (e) {
    if (budget.signal?.aborted && e === budget.signal.reason) throw e;
    throw readFailure(e, budget);
  }
  const { numPages: pageCount, labels } = text;
  if (pageCount === 0) throw new ExtractError("no_pages", "This PDF has no pages.");
  const pages: ExtractedPage[] = [];
  const pagesWithoutText: number[] = [];
  for (let n = 1; n <= pageCount; n++) {
    const pageText = normalized[n - 1];
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
