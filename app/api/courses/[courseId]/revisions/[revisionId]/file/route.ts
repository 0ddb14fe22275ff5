import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { getRevisionInCourse } from "@/lib/db/queries/documents";
import { revisionFiles } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { requireCourseAccess } from "@/lib/auth/access";
import { handler } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; revisionId: string }> };

/**
 * The PDF of one revision, for the page viewer; old revisions stay available for old citations.
 * Only a revision a citation can point to is served: one that was indexed (ready, current or
 * superseded) of a document that is not deleted. A deleted document's files, and a failed or
 * unfinished upload's, are 404 for everyone, exactly like a revision that does not exist (the
 * documents page offers no restore, so instructors have no use for them either).
 */
export const GET = handler(async (req, { params }: Ctx) => {
  const { courseId, revisionId } = await params;
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, courseId);
  const found = await getRevisionInCourse(db, { courseId: course.id, revisionId });
  if (!found || found.document.deletedAt || found.revision.status !== "ready") throw new AppError("not_found:revision");
  const file = await db.query.revisionFiles.findFirst({ where: eq(revisionFiles.revisionId, revisionId) });
  if (!file) throw new AppError("not_found:revision");
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `inline; filename*=UTF-8''${encodeURIComponent(found.revision.fileName)}`,
      // Never kept in the browser: the notes are the course's, not the device's, and a cached copy
      // would outlive sign-out (a shared computer) or the reader's removal from the course. A
      // citation's viewer fetches the file once per opening, which is cheap next to that.
      "cache-control": "private, no-store",
      "x-content-type-options": "nosniff",
    },
  });
});
