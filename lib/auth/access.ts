import "server-only";
import type { Db } from "@/lib/db/client";
import type { Role } from "@/lib/db/queries/users";
import { getCourseWithRole } from "@/lib/db/queries/courses";
import type { Course, User } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { getUserBySession, sessionTokenFrom } from "./sessions";

export async function currentUser(db: Db, cookieHeader: string | null): Promise<User | null> {
  const token = sessionTokenFrom(cookieHeader);
  return token ? getUserBySession(db, { token }) : null;
}

export async function requireUser(db: Db, req: Request): Promise<User> {
  const user = await currentUser(db, req.headers.get("cookie"));
  if (!user) throw new AppError("unauthorized:auth", "Sign in to continue.");
  return user;
}

export interface CourseAccess {
  user: User;
  course: Course;
  role: Role;
}

/**
 * The course as this user may see it. Not a member: 404, exactly as for a course that does not
 * exist, so ids cannot be probed. A member without the needed role: 403.
 */
export async function courseAccess(db: Db, user: User, courseParam: string, needs?: Role): Promise<CourseAccess> {
  const found = await getCourseWithRole(db, { courseParam, userId: user.id });
  if (!found?.role) throw new AppError("not_found:course");
  const { course, role } = found;
  if (needs && role !== needs) {
    throw new AppError("forbidden:course", needs === "instructor" ? "Only the course's instructors can do this." : "Only students can do this.");
  }
  return { user, course, role };
}

/** requireUser + courseAccess for a route handler. */
export async function requireCourseAccess(db: Db, req: Request, courseParam: string, needs?: Role): Promise<CourseAccess> {
  return courseAccess(db, await requireUser(db, req), courseParam, needs);
}
