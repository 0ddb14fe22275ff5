import "server-only";
import { createHash } from "node:crypto";
import { and, desc, eq, ne } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { documents, ingestionJobs, revisionFiles, revisions, type Document, type Revision } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { isExtractError, sniffPdf } from "@/lib/rag/ingestion";
import { sanitizeFileName, titleFromFileName } from "./files";

export interface UploadInput {
  courseId: string;
  fileName: string;
  bytes: Uint8Array;
  /** Upload as a new revision of this document. */
  documentId?: string;
  /** Name of the document; defaults to the file name. Same title in a course = same document. */
  title?: string;
  isCorrection?: boolean;
  maxBytes: number;
}

export type UploadResult =
  | { kind: "created"; document: Document; revision: Revision }
  /** The bytes equal the latest revision's: nothing was created. */
  | { kind: "unchanged"; document: Document; revision: Revision };

/**
 * Accepts a PDF into a course: checks it, then in one write transaction finds or creates the
 * document, numbers the revision (concurrent uploads get consecutive numbers, none lost) and
 * queues its ingestion job. Reading the PDF happens later, in the worker.
 */
export async function submitUpload(db: Db, input: UploadInput): Promise<UploadResult> {
  const fileName = sanitizeFileName(input.fileName);
  if (input.bytes.length === 0) throw new AppError("bad_request:upload", `“${fileName}” is empty.`);
  if (input.bytes.length > input.maxBytes) {
    throw new AppError(
      "payload_too_large:upload",
      `“${fileName}” is ${formatMb(input.bytes.length)}; the limit is ${formatMb(input.maxBytes)}.`,
    );
  }
  try {
    sniffPdf(input.bytes);
  } catch (e) {
    if (isExtractError(e)) throw new AppError(e.failure === "not_pdf" ? "unsupported_media:upload" : "bad_request:upload", `“${fileName}”: ${e.message}`);
    throw e;
  }
  const sha256 = createHash("sha256").update(input.bytes).digest("hex");
  const title = (input.title?.trim() || titleFromFileName(fileName)).slice(0, 200);

  return db.transaction(async (tx) => {
    let document: Document | undefined;
    if (input.documentId) {
      document = await tx.query.documents.findFirst({ where: and(eq(documents.id, input.documentId), eq(documents.courseId, input.courseId)) });
      if (!document) throw new AppError("not_found:document");
    } else {
      document = await tx.query.documents.findFirst({ where: and(eq(documents.courseId, input.courseId), eq(documents.title, title)) });
    }
    const restoring = Boolean(document?.deletedAt);
    if (!document) {
      [document] = await tx.insert(documents).values({ id: newId("doc"), courseId: input.courseId, title }).returning();
    } else if (document.deletedAt) {
      // Uploading to a deleted document brings it back; the new revision becomes current once indexed.
      [document] = await tx.update(documents).set({ deletedAt: null }).where(eq(documents.id, document.id)).returning();
    }
    const latest = await tx.query.revisions.findFirst({
      where: and(eq(revisions.documentId, document.id), ne(revisions.status, "failed")),
      orderBy: desc(revisions.number),
    });
    if (!restoring && latest && latest.sha256 === sha256) return { kind: "unchanged" as const, document, revision: latest };

    const last = await tx.query.revisions.findFirst({ where: eq(revisions.documentId, document.id), orderBy: desc(revisions.number) });
    const [revision] = await tx
      .insert(revisions)
      .values({
        id: newId("rev"),
        documentId: document.id,
        number: (last?.number ?? 0) + 1,
        sha256,
        fileName,
        size: input.bytes.length,
        isCorrection: input.isCorrection ?? false,
      })
      .returning();
    await tx.insert(revisionFiles).values({ revisionId: revision.id, bytes: Buffer.from(input.bytes) });
    await tx.insert(ingestionJobs).values({ id: newId("job"), revisionId: revision.id });
    return { kind: "created" as const, document, revision };
  });
}

function formatMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}
