import "server-only";
import { count, eq } from "drizzle-orm";
import type { DbHandle } from "@/lib/db/client";
import { chunks, revisions, type Revision } from "@/lib/db/schema";
import { isAppError } from "@/lib/errors";
import { processQueuedJobs, type WorkerDeps } from "./worker";
import { submitUpload } from "./upload";

export interface IngestOutcome {
  file: string;
  document: string | null;
  documentId: string | null;
  revision: number | null;
  pages: number | null;
  chunks: number | null;
  status: Revision["status"] | "unchanged" | "rejected";
  error: string | null;
  warning: string | null;
}

/**
 * Ingests files synchronously through the same upload → job → worker path the web app uses:
 * every file gets an outcome, and one bad file does not stop the others.
 */
export async function ingestFiles(
  handle: DbHandle,
  deps: WorkerDeps,
  { courseId, files, title, isCorrection, maxBytes }: { courseId: string; files: Array<{ name: string; bytes: Uint8Array }>; title?: string; isCorrection?: boolean; maxBytes: number },
): Promise<IngestOutcome[]> {
  const pending: Array<{ file: string; revisionId: string; document: string; documentId: string; unchanged: boolean } | IngestOutcome> = [];
  for (const f of files) {
    try {
      const r = await submitUpload(handle.db, { courseId, fileName: f.name, bytes: f.bytes, title: files.length === 1 ? title : undefined, isCorrection, maxBytes });
      pending.push({ file: f.name, revisionId: r.revision.id, document: r.document.title, documentId: r.document.id, unchanged: r.kind === "unchanged" });
    } catch (e) {
      if (!isAppError(e)) throw e;
      pending.push({ file: f.name, document: null, documentId: null, revision: null, pages: null, chunks: null, status: "rejected", error: e.message, warning: null });
    }
  }
  await processQueuedJobs(handle, deps);

  const outcomes: IngestOutcome[] = [];
  for (const p of pending) {
    if (!("revisionId" in p)) {
      outcomes.push(p);
      continue;
    }
    const rev = await waitForTerminal(handle, deps, p.revisionId);
    const [{ n }] = await handle.db.select({ n: count() }).from(chunks).where(eq(chunks.revisionId, p.revisionId));
    outcomes.push({
      file: p.file,
      document: p.document,
      documentId: p.documentId,
      revision: rev.number,
      pages: rev.pageCount,
      chunks: n,
      status: p.unchanged ? "unchanged" : rev.status,
      error: rev.error,
      warning: rev.warning,
    });
  }
  return outcomes;
}

/**
 * A job another process (the running server) claimed first: wait for it to finish there, or take
 * it over if that process dies and its lease expires.
 */
async function waitForTerminal(handle: DbHandle, deps: WorkerDeps, revisionId: string): Promise<Revision> {
  for (;;) {
    const rev = (await handle.db.query.revisions.findFirst({ where: eq(revisions.id, revisionId) }))!;
    if (rev.status === "ready" || rev.status === "failed") return rev;
    await new Promise((r) => setTimeout(r, 250));
    await processQueuedJobs(handle, deps);
  }
}
