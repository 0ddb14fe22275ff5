import "server-only";
import { and, asc, eq } from "drizzle-orm";
import { newId } from "@/lib/ids";
import type { Db } from "../client";
import { courses, memberships, users, type Course, type Membership, type User } from "../schema";

export type Role = Membership["role"];

export async function getUserByEmail(db: Db, { email }: { email: string }): Promise<User | undefined> {
  return db.query.users.findFirst({ where: eq(users.email, email.trim().toLowerCase()) });
}

/** Inserts the user unless the address is taken (then nothing changes and the result is null). */
export async function createUserIfNew(db: Db, { email, name, passwordHash }: { email: string; name: string; passwordHash: string }): Promise<User | null> {
  const [user] = await db
    .insert(users)
    .values({ id: newId("usr"), email: email.trim().toLowerCase(), name: name.trim(), passwordHash })
    .onConflictDoNothing({ target: users.email })
    .returning();
  return user ?? null;
}

export async function createUser(db: Db, { email, name, passwordHash }: { email: string; name: string; passwordHash: string }): Promise<User> {
  const [user] = await db.insert(users).values({ id: newId("usr"), email: email.trim().toLowerCase(), name: name.trim(), passwordHash }).returning();
  return user;
}

export async function getMembership(db: Db, { userId, courseId }: { userId: string; courseId: string }): Promise<Membership | undefined> {
  return db.query.memberships.findFirst({ where: and(eq(memberships.userId, userId), eq(memberships.courseId, courseId)) });
}

/** Adds a membership; an existing one keeps its role (an instructor who uses the join code stays instructor). */
export async function addMembership(db: Db, { userId, courseId, role }: { userId: string; courseId: string; role: Role }): Promise<void> {
  await db.insert(memberships).values({ userId, courseId, role }).onConflictDoNothing();
}

export async function listCoursesForUser(db: Db, { userId }: { userId: string }): Promise<Array<Course & { role: Role }>> {
  const rows = await db
    .select({ course: courses, role: memberships.role })
    .from(memberships)
    .innerJoin(courses, eq(courses.id, memberships.courseId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(courses.title));
  return rows.map((r) => ({ ...r.course, role: r.role }));
}

export async function getCourseByJoinCode(db: Db, { joinCode }: { joinCode: string }): Promise<Course | undefined> {
  return db.query.courses.findFirst({ where: eq(courses.joinCode, joinCode.trim().toUpperCase()) });
}
