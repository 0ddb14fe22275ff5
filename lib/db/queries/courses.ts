import "server-only";
import { and, eq, or } from "drizzle-orm";
import { newId, newJoinCode } from "@/lib/ids";
import type { Db } from "../client";
import { courses, memberships, type Course, type Membership } from "../schema";

export async function getCourseBySlug(db: Db, { slug }: { slug: string }): Promise<Course | undefined> {
  return db.query.courses.findFirst({ where: eq(courses.slug, slug) });
}

/**
 * A course by slug, else by id, with this user's role in it (null: not a member). One statement:
 * every course-scoped request starts here.
 */
export async function getCourseWithRole(db: Db, { courseParam, userId }: { courseParam: string; userId: string }): Promise<{ course: Course; role: Membership["role"] | null } | undefined> {
  const rows = await db
    .select({ course: courses, role: memberships.role })
    .from(courses)
    .leftJoin(memberships, and(eq(memberships.courseId, courses.id), eq(memberships.userId, userId)))
    .where(or(eq(courses.slug, courseParam), eq(courses.id, courseParam)));
  return rows.find((r) => r.course.slug === courseParam) ?? rows[0];
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
