import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens } from "@/lib/ai/tokenizer";
import { ensureCourse } from "@/lib/db/queries/courses";
import { openTempDb } from "@/lib/db/temp";
import { ingestFiles } from "@/lib/ingest/ingest-files";
import { buildLargePdf } from "@/lib/pdf/build";
import { corpusPdfs } from "@/lib/pdf/corpus";


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

export async function benchIngestion(): Promise<void> {
  ensurePoppler();
  const dir = mkdtempSync(join(tmpdir(), "bench-ingest-"));
  const large = join(dir, "generated-500-pages.pdf");
  writeFileSync(large, await buildLargePdf(500));
  const sets = [
    { name: "shared/corpus (5 PDFs)", files: corpusPdfs("the ingestion benchmark reads") },
    { name: "generated 500-page PDF", files: [large] },
  ];
  const deps = { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 64 };
  console.log("\n## Ingestion: extract + chunk + index vs pdftotext (same files, same run)\n");
  console.log("| set | pages | ours pages/s | pdftotext pages/s | ours ÷ pdftotext |");
  console.log("|---|---:|---:|---:|---:|");
  for (const set of sets) {
    const db = await openTempDb();
    const course = await ensureCourse(db.db, { slug: "bench" });
    const files = set.files.map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(f)) }));
    countTokens("warm up the tokenizer");
    const t0 = performance.now();
    const outcomes = await ingestFiles(db, deps, { courseId: course.id, files, maxBytes: 1 << 30 });
    const ours = (performance.now() - t0) / 1000;
    const pages = outcomes.reduce((n, o) => n + (o.pages ?? 0), 0);
    const ref = set.files.reduce((s, f) => s + pdftotextSeconds(f), 0);
    console.log(`| ${set.name} | ${pages} | ${(pages / ours).toFixed(1)} | ${(pages / ref).toFixed(1)} | ${(ref / ours).toFixed(3)} |`);
    db.dispose();
  }
  console.log(`\npeak RSS of this process: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
}
