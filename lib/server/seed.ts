import "server-only";
import type { DbHandle } from "@/lib/db/client";
import { hashPassword } from "@/lib/auth/password";
import { createCourse, getCourseBySlug } from "@/lib/db/queries/courses";
import { addMembership, createUser, getUserByEmail } from "@/lib/db/queries/users";
import { demoCourse, demoDocuments } from "@/lib/demo/course";
import { env } from "@/lib/env";
import { submitUpload } from "@/lib/ingest/upload";
import { ensureDemoGoldenSet } from "./evaluation";

/** The demo accounts: printed at start and in the README, for a first look only. */
export const DEMO_ACCOUNTS = {
  instructor: { email: "instructor@demo.test", password: "demo-instructor", name: "Dr. Maya Lindqvist" },
  student: { email: "student@demo.test", password: "demo-student", name: "Sam Student" },
} as const;

async function ensureUser(db: DbHandle["db"], account: { email: string; password: string; name: string }) {
  return (await getUserByEmail(db, { email: account.email })) ?? createUser(db, { ...account, passwordHash: await hashPassword(account.password) });
}

/**
 * The demo course with one instructor and one student and its golden set `demo`; its generated
 * PDFs are queued through the ordinary upload path and the worker indexes them.
 */
export async function seedDemoCourse({ db }: DbHandle): Promise<{ slug: string; joinCode: string }> {
  const instructor = await ensureUser(db, DEMO_ACCOUNTS.instructor);
  const student = await ensureUser(db, DEMO_ACCOUNTS.student);
  const course =
    (await getCourseBySlug(db, { slug: demoCourse.slug })) ?? (await createCourse(db, { title: demoCourse.title, slug: demoCourse.slug, instructorId: instructor.id }));
  await addMembership(db, { userId: instructor.id, courseId: course.id, role: "instructor" });
  await addMembership(db, { userId: student.id, courseId: course.id, role: "student" });
  for (const doc of await demoDocuments()) {
    await submitUpload(db, { courseId: course.id, fileName: doc.fileName, title: doc.title, bytes: doc.bytes, isCorrection: doc.isCorrection, maxBytes: env.MAX_UPLOAD_BYTES });
  }
  await ensureDemoGoldenSet(db, course.id);
  return { slug: course.slug, joinCode: course.joinCode };
}
