/**
 * Writes the generated N-page PDF to a file: `tsx bench/make-pdf.ts OUT.pdf N`. The ingestion
 * benchmark runs it in a child process so that pdf-lib building its input (about 55 MB) is not
 * counted in the peak RSS of the process that ingests.
 */
import { writeFileSync } from "node:fs";
import { buildLargePdf } from "@/lib/pdf/build";

const [out, pages] = process.argv.slice(2);
if (!out || !Number.isInteger(Number(pages)) || Number(pages) < 1) {
  console.error("Usage: tsx bench/make-pdf.ts OUT.pdf PAGES");
  process.exit(2);
}
writeFileSync(out, await buildLargePdf(Number(pages)));
