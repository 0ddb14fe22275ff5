import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { requireUser } from "@/lib/auth/access";
import { addMembership, getCourseByJoinCode, getMembership } from "@/lib/db/queries/users";
import { AppError } from "@/lib/errors";
import { handler, parseJson } from "@/lib/server/http";
import { joinLimiter } from "@/lib/server/limits";

const joinBody = z.object({ code: z.string().trim().min(4).max(32) }).strict();

export const POST = handler(async (req) => {
  const { db } = await getDb();
  const user = await requireUser(db, req);
  // Join codes are 8 of 32 symbols (2⁴⁰); the limit keeps guessing them hopeless.
  await joinLimiter.check(db, user.id);
  const { code } = await parseJson(req, joinBody);
  const course = await getCourseByJoinCode(db, { joinCode: code });
  if (!course) throw new AppError("not_found:course", "No course has that join code. Check it with your instructor.");
  await addMembership(db, { userId: user.id, courseId: course.id, role: "student" });
  const membership = await getMembership(db, { userId: user.id, courseId: course.id });
  return Response.json({ slug: course.slug, title: course.title, role: membership!.role });
});
