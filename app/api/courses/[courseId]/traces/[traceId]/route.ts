import { getDb } from "@/lib/db/client";
import { requireCourseAccess } from "@/lib/auth/access";
import { getTrace } from "@/lib/db/queries/answers";
import { AppError } from "@/lib/errors";
import { handler } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; traceId: string }> };

/** The full decision trace of one answer: instructors only. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { courseId, traceId } = await params;
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, courseId, "instructor");
  const trace = await getTrace(db, { courseId: course.id, traceId });
  if (!trace) throw new AppError("not_found:trace");
  return Response.json(trace);
});
