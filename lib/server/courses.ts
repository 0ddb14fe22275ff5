import "server-only";
import type { Db } from "@/lib/db/client";
import { getCourseById, getCourseBySlug } from "@/lib/db/queries/courses";
import type { Course } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";

/** URLs name a course by slug (or id); anything else is a 404. */
export async function requireCourse(db: Db, param: string): Promise<Course> {
  const course = (await getCourseBySlug(db, { slug: param })) ?? (await getCourseById(db, { courseId: param }));
  if (!course) throw new AppError("not_found:course");
  return course;
}
