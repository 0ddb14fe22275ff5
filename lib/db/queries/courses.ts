import "server-only";
import { asc, eq } from "drizzle-orm";
import { newId, newJoinCode } from "@/lib/ids";
import type { Db } from "../client";
import { courses, type Course } from "../schema";

export async function getCourseBySlug(db: Db, { slug }: { slug: string }): Promise<Course | undefined> {
  return db.query.courses.findFirst({ where: eq(courses.slug, slug) });
}

export async function getCourseById(db: Db, { courseId }: { courseId: string }): Promise<Course | undefined> {
  return db.query.courses.findFirst({ where: eq(courses.id, courseId) });
}

export async function listCourses(db: Db): Promise<Course[]> {
  return db.select().from(courses).orderBy(asc(courses.title));
}

/** Returns the course with this slug, creating it when absent (the CLI's "creates the course"). */
export async function ensureCourse(db: Db, { slug, title }: { slug: string; title?: string }): Promise<Course> {
  const existing = await getCourseBySlug(db, { slug });
  if (existing) return existing;
  await db
    .insert(courses)
    .values({ id: newId("crs"), slug, title: title ?? slug, joinCode: newJoinCode() })
    .onConflictDoNothing({ target: courses.slug });
  return (await getCourseBySlug(db, { slug }))!;
}
