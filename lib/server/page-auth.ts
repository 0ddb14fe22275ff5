import "server-only";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { courseAccess, currentUser, type CourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import type { Role } from "@/lib/db/queries/users";
import type { User } from "@/lib/db/schema";
import { isAppError } from "@/lib/errors";

/** The signed-in user of a page request, or null. */
export async function pageUser(): Promise<User | null> {
  const { db } = await getDb();
  const jar = await cookies();
  return currentUser(db, jar.toString() || null);
}

/** The signed-in user, or a redirect to sign-in that comes back to `path`. */
export async function requirePageUser(path: string): Promise<User> {
  const user = await pageUser();
  if (!user) redirect(`/sign-in?next=${encodeURIComponent(path)}`);
  return user;
}

/**
 * A course page's access check, the same rules as the API: not a member → 404; the wrong role →
 * the course's chat (students have no documents or traces pages).
 */
export async function requirePageCourse(courseParam: string, section: string, needs?: Role): Promise<CourseAccess> {
  const user = await requirePageUser(`/courses/${encodeURIComponent(courseParam)}/${section}`);
  const { db } = await getDb();
  try {
    return await courseAccess(db, user, courseParam, needs);
  } catch (e) {
    if (isAppError(e) && e.type === "not_found") notFound();
    if (isAppError(e) && e.type === "forbidden") redirect(`/courses/${encodeURIComponent(courseParam)}/chat?denied=${encodeURIComponent(section)}`);
    throw e;
  }
}
