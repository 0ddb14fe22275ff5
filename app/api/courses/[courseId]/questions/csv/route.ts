import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { handler } from "@/lib/server/http";
import { courseQuestions } from "@/lib/server/workbench";
import { questionsCsv } from "@/lib/workbench/topics";

type Ctx = { params: Promise<{ courseId: string }> };

/** The course's student questions as CSV, with topic, status and missing parts; no student is named. Instructors only. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, (await params).courseId, "instructor");
  const { questions, overview } = await courseQuestions(course.id);
  return new Response(questionsCsv(questions, overview), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${course.slug}-questions.csv"`,
      "cache-control": "no-store",
    },
  });
});
