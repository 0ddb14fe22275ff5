import "server-only";
import { and, asc, count, eq, isNull, sql } from "drizzle-orm";
import type { DocumentView } from "@/components/documents/types";
import { getDb, type Db } from "@/lib/db/client";
import { getDocumentsWithRevisions } from "@/lib/db/queries/documents";
import { courses, documents, memberships } from "@/lib/db/schema";

/** Read models for the app's pages, so pages never query lib/db themselves. */

export interface CourseSummary {
  id: string;
  slug: string;
  /** Shown to the course's instructors, who hand it to students. */
  joinCode: string;
  title: string;
  role: "instructor" | "student";
  documentCount: number;
  /** Documents with a ready, searchable revision. */
  readyCount: number;
}

export async function pageDb(): Promise<Db> {
  return (await getDb()).db;
}

/** The courses a user belongs to, alphabetically, with their role and how many documents are searchable. */
export async function listCourseSummaries(userId: string): Promise<CourseSummary[]> {
  const db = await pageDb();
  const rows = await db
    .select({
      id: courses.id,
      slug: courses.slug,
      joinCode: courses.joinCode,
      title: courses.title,
      role: memberships.role,
      documentCount: count(documents.id),
      readyCount: sql<number>`count(${documents.currentRevisionId})`,
    })
    .from(memberships)
    .innerJoin(courses, eq(courses.id, memberships.courseId))
    .leftJoin(documents, and(eq(documents.courseId, courses.id), isNull(documents.deletedAt)))
    .where(eq(memberships.userId, userId))
    .groupBy(courses.id, memberships.role)
    .orderBy(asc(courses.title));
  return rows.map((r) => ({ ...r, documentCount: Number(r.documentCount), readyCount: Number(r.readyCount) }));
}

/** The documents of a course in the shape the browser polls (dates as ISO strings). */
export async function listDocumentViews(db: Db, courseId: string): Promise<DocumentView[]> {
  const docs = await getDocumentsWithRevisions(db, { courseId });
  return docs.map((d) => ({
    id: d.id,
    title: d.title,
    currentRevisionId: d.currentRevisionId,
    revisions: d.revisions.map((r) => ({
      id: r.id,
      number: r.number,
      sha256: r.sha256,
      fileName: r.fileName,
      size: r.size,
      pageCount: r.pageCount,
      status: r.status,
      progress: r.progress,
      error: r.error,
      warning: r.warning,
      isCorrection: r.isCorrection,
      uploadedAt: r.uploadedAt.toISOString(),
    })),
  }));
}
