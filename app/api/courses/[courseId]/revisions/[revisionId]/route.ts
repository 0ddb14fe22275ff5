import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { getRevisionInCourse, setRevisionCorrection } from "@/lib/db/queries/documents";
import { AppError } from "@/lib/errors";
import { requireCourseAccess } from "@/lib/auth/access";
import { handler, parseJson } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; revisionId: string }> };

const patchBody = z.object({ isCorrection: z.boolean() }).strict();

/** Marks or unmarks a revision as an instructor's correction (it then supersedes conflicting notes). */
export const PATCH = handler(async (req, { params }: Ctx) => {
  const { courseId, revisionId } = await params;
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, courseId, "instructor");
  const found = await getRevisionInCourse(db, { courseId: course.id, revisionId });
  if (!found) throw new AppError("not_found:revision");
  const { isCorrection } = await parseJson(req, patchBody);
  await setRevisionCorrection(db, { revisionId, isCorrection });
  return Response.json({ revisionId, isCorrection });
});
