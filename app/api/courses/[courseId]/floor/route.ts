import { z } from "zod";
import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { setCourseMinScore } from "@/lib/db/queries/golden";
import { handler, parseJson } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string }> };

const body = z.object({
  minScore: z.number().min(0).max(1),
  // The page asks first; the route holds it to that, so no stray request moves the floor.
  confirm: z.literal(true, "Confirm the new floor."),
});

/** Sets the course's answer-score floor (the gate and the extractive generator use it for every answer from then on). Instructors only. */
export const POST = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, (await params).courseId, "instructor");
  const { minScore } = await parseJson(req, body);
  await setCourseMinScore(db, { courseId: course.id, minScore });
  return Response.json({ minScore });
});
