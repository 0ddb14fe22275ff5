import "server-only";
import type { DbHandle } from "@/lib/db/client";
import { ensureCourse } from "@/lib/db/queries/courses";
import { demoCourse, demoDocuments } from "@/lib/demo/course";
import { env } from "@/lib/env";
import { submitUpload } from "@/lib/ingest/upload";

/** Queues the demo course's generated PDFs through the ordinary upload path; the worker indexes them. */
export async function seedDemoCourse({ db }: DbHandle): Promise<string> {
  const course = await ensureCourse(db, { slug: demoCourse.slug, title: demoCourse.title });
  for (const doc of await demoDocuments()) {
    await submitUpload(db, { courseId: course.id, fileName: doc.fileName, title: doc.title, bytes: doc.bytes, isCorrection: doc.isCorrection, maxBytes: env.MAX_UPLOAD_BYTES });
  }
  return course.slug;
}
