import { getDb } from "@/lib/db/client";
import { requireCourseAccess } from "@/lib/auth/access";
import { deleteDocument } from "@/lib/db/queries/documents";
import { AppError } from "@/lib/errors";
import { handler } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; documentId: string }> };

/** Removes a document from the course's list and search; answers that quoted it keep their citations. */
export const DELETE = handler(async (req, { params }: Ctx) => {
  const { courseId, documentId } = await params;
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, courseId, "instructor");
  if (!(await deleteDocument(db, { courseId: course.id, documentId }))) throw new AppError("not_found:document");
  return new Response(null, { status: 204 });
});
