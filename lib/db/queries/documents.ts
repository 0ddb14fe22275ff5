import "server-only";
import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "../client";
import { documents, revisions, type Document, type Revision } from "../schema";

export type RevisionSummary = Omit<Revision, "documentId">;

export interface DocumentWithRevisions extends Document {
  /** Newest first. */
  revisions: RevisionSummary[];
}

/** Every document of a course with all its revisions, for the documents page and its polling. */
export async function getDocumentsWithRevisions(db: Db, { courseId }: { courseId: string }): Promise<DocumentWithRevisions[]> {
  const docs = await db
    .select()
    .from(documents)
    .where(and(eq(documents.courseId, courseId), isNull(documents.deletedAt)))
    .orderBy(asc(documents.title));
  if (docs.length === 0) return [];
  const revs = await db
    .select()
    .from(revisions)
    .where(inArray(revisions.documentId, docs.map((d) => d.id)))
    .orderBy(desc(revisions.number));
  return docs.map((d) => ({
    ...d,
    revisions: revs.filter((r) => r.documentId === d.id).map(({ documentId: _omit, ...r }) => r),
  }));
}

/** A revision together with its document, only when the document belongs to the course. */
export async function getRevisionInCourse(
  db: Db,
  { courseId, revisionId }: { courseId: string; revisionId: string },
): Promise<{ revision: Revision; document: Document } | undefined> {
  const [row] = await db
    .select({ revision: revisions, document: documents })
    .from(revisions)
    .innerJoin(documents, eq(documents.id, revisions.documentId))
    .where(and(eq(revisions.id, revisionId), eq(documents.courseId, courseId)));
  return row;
}

export async function setRevisionCorrection(db: Db, { revisionId, isCorrection }: { revisionId: string; isCorrection: boolean }): Promise<void> {
  await db.update(revisions).set({ isCorrection }).where(eq(revisions.id, revisionId));
}


/**
 * Deletes a document for students and search: it leaves the list and stops being searchable at
 * once. Its revisions, pages and files stay, so answers that quoted it keep their citations.
 * Uploading a file with its title again brings it back as a new revision.
 */
export async function deleteDocument(db: Db, { courseId, documentId }: { courseId: string; documentId: string }): Promise<boolean> {
  const rows = await db
    .update(documents)
    .set({ deletedAt: new Date(), currentRevisionId: null })
    .where(and(eq(documents.id, documentId), eq(documents.courseId, courseId), isNull(documents.deletedAt)))
    .returning({ id: documents.id });
  return rows.length > 0;
}
