import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { countTokens } from "@/lib/ai/tokenizer";
import { ensureCourse } from "@/lib/db/queries/courses";
import { openTempDb } from "@/lib/db/temp";
import { ingestFiles } from "@/lib/ingest/ingest-files";
import type { WorkerDeps } from "@/lib/ingest/worker";
import { corpusPdfs } from "@/lib/pdf/corpus";
import { defaultReaderThreads, readPdfText } from "@/lib/rag/pdf-threads";

function ensurePoppler(): void {
  if (spawnSync("pdftotext", ["-v"]).status === 0) return;
  console.log("installing poppler-utils for the pdftotext reference…");
  execFileSync("bash", ["-c", "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils"], { stdio: "inherit" });
}

function pdftotextSeconds(path: string): number {
  const t0 = performance.now();
  const r = spawnSync("pdftotext", ["-layout", path, "-"], { maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`pdftotext failed on ${path}`);
  return (performance.now() - t0) / 1000;
}

type Files = Array<{ name: string; bytes: Uint8Array }>;

/** The generated PDF, built by a child process with this one's loader flags (tsx): its memory is not ingestion's. */
function generatedPdf(path: string, pages: number): string {
  execFileSync(process.execPath, [...process.execArgv, fileURLToPath(new URL("./make-pdf.ts", import.meta.url)), path, String(pages)], { stdio: "inherit" });
  return path;
}

async function ingestSeconds(files: Files, readerThreads: number): Promise<{ seconds: number; pages: number }> {
  const db = await openTempDb();
  try {
    const course = await ensureCourse(db.db, { slug: "bench" });
    const deps: WorkerDeps = { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 64, readerThreads };
    const t0 = performance.now();
    const outcomes = await ingestFiles(db, deps, { courseId: course.id, files, maxBytes: 1 << 30 });
    const seconds = (performance.now() - t0) / 1000;
    const failed = outcomes.find((o) => o.status !== "ready");
    if (failed) throw new Error(`${failed.file}: ${failed.status} ${failed.error ?? ""}`);
    return { seconds, pages: outcomes.reduce((n, o) => n + (o.pages ?? 0), 0) };
  } finally {
    db.dispose();
  }
}

/** PDFium's text alone on every reader thread: the floor under extract + chunk + index. */
async function readSeconds(files: Files): Promise<number> {
  const t0 = performance.now();
  for (const f of files) await readPdfText(f.bytes, { threads: defaultReaderThreads });
  return (performance.now() - t0) / 1000;
}

export async function benchIngestion(): Promise<void> {
  ensurePoppler();
  const dir = mkdtempSync(join(tmpdir(), "bench-ingest-"));
  const large = generatedPdf(join(dir, "generated-500-pages.pdf"), 500);
  const sets = [
    { name: "`../shared/corpus` (5 PDFs)", files: corpusPdfs("the ingestion benchmark reads") },
    { name: "generated 500-page PDF", files: [large] },
  ];
  // A running server has PDFium compiled in its reader threads and the tokenizer loaded before
  // the first upload; warm both so the figures are the steady state, not module start-up.
  const warmUp = generatedPdf(join(dir, "warm-up.pdf"), 24 * defaultReaderThreads);
  await ingestSeconds([{ name: "warm-up.pdf", bytes: new Uint8Array(readFileSync(warmUp)) }], defaultReaderThreads);

  const n = defaultReaderThreads;
  const ratio = (ref: number, ours: number) => `${(ref / ours).toFixed(2)}×`;
  console.log("\n## Ingestion: extract + chunk + index vs pdftotext (same files, same run)\n");
  console.log(`| set | pages | pdftotext pages/s | ours, 1 reader thread | ours, ${n} reader threads | PDFium reading alone, ${n} threads |`);
  console.log("|---|---:|---:|---:|---:|---:|");
  const ours: string[] = [];
  for (const set of sets) {
    const files = set.files.map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(f)) }));
    const ref = set.files.reduce((s, f) => s + pdftotextSeconds(f), 0);
    const one = await ingestSeconds(files, 1);
    const all = await ingestSeconds(files, n);
    const read = await readSeconds(files);
    const pages = all.pages;
    const cell = (seconds: number) => `${(pages / seconds).toFixed(0)} (${ratio(ref, seconds)})`;
    console.log(`| ${set.name} | ${pages} | ${(pages / ref).toFixed(0)} | ${cell(one.seconds)} | ${cell(all.seconds)} | ${cell(read)} |`);
    ours.push(ratio(ref, all.seconds));
  }
  console.log("\nIn brackets: ours ÷ pdftotext (1.00× = as fast as pdftotext).");
  // The one line to compare runs by: the whole pipeline on every reader thread, and the process's peak (reader threads included).
  console.log(`ingest: corpus ${ours[0]} pdftotext, 500 pages ${ours[1]} pdftotext, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}
