import { z } from "zod";
import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { createGoldenSet, listGoldenSets } from "@/lib/db/queries/golden";
import { goldenSetNameSchema } from "@/lib/server/evaluation";
import { handler, parseJson } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string }> };

/** The course's golden sets with their question counts. Instructors only. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, (await params).courseId, "instructor");
  return Response.json({ sets: await listGoldenSets(db, { courseId: course.id }) });
});

/** A new, empty golden set; a name the course already has is 409. Instructors only. */
export const POST = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, (await params).courseId, "instructor");
  const { name } = await parseJson(req, z.object({ name: goldenSetNameSchema }));
  return Response.json({ set: await createGoldenSet(db, { courseId: course.id, name }) }, { status: 201 });
});
