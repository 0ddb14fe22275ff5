import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { requireUser } from "@/lib/auth/access";
import { createCourse } from "@/lib/db/queries/courses";
import { listCoursesForUser } from "@/lib/db/queries/users";
import { handler, parseJson } from "@/lib/server/http";

export const GET = handler(async (req) => {
  const { db } = await getDb();
  const user = await requireUser(db, req);
  return Response.json({ courses: await listCoursesForUser(db, { userId: user.id }) });
});

const createBody = z.object({ title: z.string().trim().min(3, "Give the course a title of at least 3 characters.").max(120) }).strict();

/** Whoever creates a course is its instructor; students join with its code. */
export const POST = handler(async (req) => {
  const { db } = await getDb();
  const user = await requireUser(db, req);
  const { title } = await parseJson(req, createBody);
  const course = await createCourse(db, { title, instructorId: user.id });
  return Response.json({ id: course.id, slug: course.slug, title: course.title, joinCode: course.joinCode }, { status: 201 });
});
