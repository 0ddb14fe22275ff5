import "server-only";
import { eq } from "drizzle-orm";
import { newId, newJoinCode } from "@/lib/ids";
import type { Db } from "../client";
import { courses, memberships, type Course } from "../schema";

export async function getCourseBySlug(db: Db, { slug }: { slug: string }): Promise<Course | undefined> {
  return db.query.courses.findFirst({ where: eq(courses.slug, slug) });
}

export async function getCourseById(db: Db, { courseId }: { courseId: string }): Promise<Course | undefined> {
  return db.query.courses.findFirst({ where: eq(courses.id, courseId) });
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

/** "Intro to Databases" → "intro-to-databases-k3j9": readable, and unique without a lookup. */
function slugify(title: string): string {
  const base = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
  return `${base || "course"}-${newId("x").slice(-4).toLowerCase().replace(/[^a-z0-9]/g, "0")}`;
}

/** A new course with its creator as instructor, in one transaction. */
export async function createCourse(db: Db, { title, instructorId, slug }: { title: string; instructorId: string; slug?: string }): Promise<Course> {
  return db.transaction(async (tx) => {
    const [course] = await tx.insert(courses).values({ id: newId("crs"), slug: slug ?? slugify(title), title, joinCode: newJoinCode() }).returning();
    await tx.insert(memberships).values({ userId: instructorId, courseId: course.id, role: "instructor" });
    return course;
  });
}
