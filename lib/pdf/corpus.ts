import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The real course PDFs the tests, the evaluation and the benchmark read: ../shared/corpus beside the repository. */
export const CORPUS_DIR = resolve(fileURLToPath(new URL("../..", import.meta.url)), "../shared/corpus");

/** Fails loudly, naming the folder, when the corpus is absent: never a silent skip. */
export function requireCorpus(purpose: string): string {
  if (!existsSync(CORPUS_DIR)) {
    throw new Error(
      `The course-PDF corpus is missing: expected ${CORPUS_DIR} (../shared/corpus relative to the repository), which ${purpose}. ` +
        "Restore that folder (see shared/corpus/SOURCES.md) next to the repository.",
    );
  }
  return CORPUS_DIR;
}

/** Absolute paths of every PDF in the corpus, sorted. */
export function corpusPdfs(purpose: string): string[] {
  const dir = requireCorpus(purpose);
  return readdirSync(dir)
    .filter((f) => f.toLowerCase().endsWith(".pdf"))
    .sort()
    .map((f) => join(dir, f));
}
