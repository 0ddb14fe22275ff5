import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { getEvalRun } from "@/lib/db/queries/golden";
import { AppError } from "@/lib/errors";
import { handler } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; runId: string }> };

/** One run: its settings, progress while it runs, its report once done. Instructors only. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { courseId, runId } = await params;
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, courseId, "instructor");
  const run = await getEvalRun(db, { courseId: course.id, runId });
  if (!run) throw new AppError("not_found:eval_run", "The evaluation run was not found.");
  return Response.json({ run }, { headers: { "cache-control": "no-store" } });
});
