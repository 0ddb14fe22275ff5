import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";

/** Why the reader gave up on a file (pdf-text.worker.mjs). */
export type PdfReadFailure = "password" | "damaged" | "page_limit" | "out_of_memory";

/** PDFium failed on the file, or the file is over a limit; `reason` says which. */
export class PdfReadError extends Error {
  override readonly name = "PdfReadError";
  constructor(
    readonly reason: PdfReadFailure,
    message: string,
    /** The page being read when it failed; null while opening the document. */
    readonly page: number | null,
  ) {
    super(message);
  }
}

export function isPdfReadError(e: unknown): e is PdfReadError {
  return e instanceof PdfReadError;
}

type Reply =
  | { job: number; type: "page"; page: number; numPages: number; text: string }
  | { job: number; type: "done"; numPages: number; labels: string[] | null }
  | { job: number; type: "error"; reason: PdfReadFailure; message: string; page: number | null };

/** Thread `index` of `of` reading the document: see pdf-text.worker.mjs for which pages it takes. */
type Request = { job: number; bytes: Uint8Array; index: number; of: number; maxPages?: number };

/** Pages each extra thread must have to be used: for fewer, a second thread would parse the fonts again for little gain. */
const PAGES_PER_THREAD = 24;
/**
 * A hostile PDF may exhaust its thread's memory: PDFium's WebAssembly heap and the thread's
 * JavaScript heap are each capped at this (INGEST_READER_HEAP_MB); the thread dies, the server
 * does not.
 */
export const DEFAULT_THREAD_HEAP_MB = 1024;
/**
 * A reader's young generation: its garbage is one page's runs at a time, so a small one costs no
 * CPU (measured on the corpus and a 500-page PDF) and keeps about 5 MB a thread off the process's
 * RSS that V8's default for a 1 GB heap would take.
 */
const READER_YOUNG_HEAP_MB = 4;
/** An idle reader holds PDFium and the heap its largest document grew (WebAssembly memory never shrinks); after this long without work it is let go. */
export const READER_IDLE_MS = 60_000;

// Resolved from the working directory, not import.meta.url: bundled server code has no file URL to
// resolve from, and the app, the CLI and the tests all run from the project root.
const pdfiumRoot = () => join(process.cwd(), "node_modules", "@hyzyla", "pdfium");
const workerFile = () => join(process.cwd(), "lib", "rag", "pdf-text.worker.mjs");

/** PDFium compiled once for all reader threads, which share its machine code; dropped when the last thread goes. */
let pdfium: Promise<WebAssembly.Module> | null = null;

function compiledPdfium(): Promise<WebAssembly.Module> {
  if (!pdfium) {
    pdfium = readFile(join(pdfiumRoot(), "dist", "pdfium.wasm")).then((binary) => WebAssembly.compile(binary));
    pdfium.catch(() => (pdfium = null)); // let the next document try again
  }
  return pdfium;
}

class ReaderThread {
  private readonly worker: Worker;
  private readonly handlers = new Map<number, (r: Reply | Error) => void>();
  private idleTimer: NodeJS.Timeout | undefined;
  dead = false;

  constructor(
    readonly heapMb: number,
    wasm: WebAssembly.Module,
  ) {
    this.worker = new Worker(workerFile(), {
      workerData: { wasm, pagesPerThread: PAGES_PER_THREAD, heapMb },
      execArgv: [],
      resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: READER_YOUNG_HEAP_MB },
    });
    this.worker.unref();
    this.worker.on("message", (r: Reply) => this.handlers.get(r.job)?.(r));
    const fail = (e: Error) => {
      this.die();
      for (const h of this.handlers.values()) h(e);
      this.handlers.clear();
    };
    this.worker.on("error", fail);
    this.worker.on("exit", (code) => fail(new Error(`the PDF reader stopped (exit code ${code})`)));
  }

  /** Sends one request and feeds its replies to `onReply` until "done", "error" or the thread's death. */
  request(req: Request, onReply: (r: Reply) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.handlers.size === 0) {
        clearTimeout(this.idleTimer);
        this.worker.ref(); // a busy thread keeps the process alive
      }
      const finish = (settle: () => void) => {
        this.handlers.delete(req.job);
        if (this.handlers.size === 0) {
          this.worker.unref();
          this.idleTimer = setTimeout(() => this.retire(), READER_IDLE_MS).unref();
        }
        settle();
      };
      this.handlers.set(req.job, (r) => {
        if (r instanceof Error) return finish(() => reject(r));
        if (r.type === "error") {
          if (r.reason === "out_of_memory") this.die(); // the thread exits after it: never send it another job
          return finish(() => reject(new PdfReadError(r.reason, r.message, r.page)));
        }
        try {
          onReply(r);
        } catch (e) {
          return finish(() => reject(e)); // the caller's page handler failed: never an uncaught throw in the message event
        }
        if (r.type === "done") finish(resolve);
      });
      const copy = req.bytes.slice(); // transferred, so the caller's bytes stay attached
      this.worker.postMessage({ ...req, bytes: copy }, [copy.buffer]);
    });
  }

  get idle(): boolean {
    return this.handlers.size === 0;
  }

  retire(): void {
    if (this.handlers.size > 0) return;
    this.die();
    void this.worker.terminate();
  }

  private die(): void {
    this.dead = true;
    if (readerThreadCount() === 0) pdfium = null;
  }

  cancel(job: number): void {
    if (!this.dead) this.worker.postMessage({ job, cancel: true });
  }
}

const threads: ReaderThread[] = [];
let nextJob = 1;

/** Reader i, started anew when it died, or when it is idle and was started with another heap limit. */
function thread(i: number, heapMb: number, wasm: WebAssembly.Module): ReaderThread {
  if (threads[i] && !threads[i].dead && threads[i].heapMb !== heapMb && threads[i].idle) threads[i].retire();
  if (!threads[i] || threads[i].dead) threads[i] = new ReaderThread(heapMb, wasm);
  return threads[i];
}

/** Reader threads running now (idle ones included, retired ones not). */
export function readerThreadCount(): number {
  return threads.filter((t) => !t.dead).length;
}

/** Threads the reader may use: the machine's cores, at most four. */
export const defaultReaderThreads = Math.max(1, Math.min(4, availableParallelism()));

export interface PdfText {
  numPages: number;
  labels: string[] | null;
  /** Reading text per physical page (lines and paragraphs rebuilt, not yet normalised), index 0 = page 1. */
  pages: string[];
}

/**
 * Reads every page's text with PDFium on up to `threads` threads (one per 24 pages), each
 * taking every n-th page. `onPage(read, total)` counts pages as they arrive, `onText(page, text)`
 * hands each over as it arrives (in no particular order). A document of more
 * than `maxPages` pages is refused before a page is read; `signal` stops the reading after the
 * page at hand (the signal's reason is thrown). Throws PdfReadError.
 */
export async function readPdfText(
  bytes: Uint8Array,
  {
    threads: maxThreads = defaultReaderThreads,
    onPage,
    onText,
    maxPages,
    heapMb = DEFAULT_THREAD_HEAP_MB,
    signal,
  }: {
    threads?: number;
    onPage?: (read: number, total: number) => void;
    onText?: (page: number, text: string) => void;
    maxPages?: number;
    heapMb?: number;
    signal?: AbortSignal;
  } = {},
): Promise<PdfText> {
  signal?.throwIfAborted();
  const job = nextJob++;
  const wasm = await compiledPdfium();
  const readers = Array.from({ length: Math.max(1, maxThreads) }, (_, i) => thread(i, heapMb, wasm));
  let abort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    abort = () => reject(signal!.reason);
    signal?.addEventListener("abort", abort, { once: true });
  });
  aborted.catch(() => {});
  const pages: string[] = [];
  let numPages = 0;
  let labels: string[] | null = null;
  let read = 0;
  try {
    const reading = Promise.all(
      readers.map((reader, index) =>
        reader.request({ job, bytes, index, of: readers.length, maxPages }, (r) => {
          if (r.type === "page") {
            pages[r.page - 1] = r.text;
            onText?.(r.page, r.text);
            onPage?.(++read, r.numPages);
          } else if (r.type === "done") {
            numPages = r.numPages;
            if (index === 0) labels = r.labels;
          }
        }),
      ),
    );
    reading.catch(() => {}); // raced against the signal: a late failure must not go unhandled
    await (signal ? Promise.race([reading, aborted]) : reading);
  } catch (e) {
    for (const reader of readers) reader.cancel(job);
    throw e;
  } finally {
    if (abort) signal?.removeEventListener("abort", abort);
  }
  return { numPages, labels, pages };
}
