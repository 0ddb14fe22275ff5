import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DocumentsManager } from "@/components/documents/documents-manager";
import { SiteHeader } from "@/components/ui/site-header";
import type { Course } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { listDocumentViews, pageDb } from "@/lib/server/catalog";
import { requireCourse } from "@/lib/server/courses";

type Props = { params: Promise<{ courseId: string }> };

export const metadata: Metadata = { title: "Documents" };

async function loadCourse(param: string): Promise<Course> {
  try {
    return await requireCourse(await pageDb(), param);
  } catch (e) {
    if (isAppError(e) && e.type === "not_found") notFound();
    throw e;
  }
}

export default async function DocumentsPage({ params }: Props) {
  const course = await loadCourse((await params).courseId);
  const documents = await listDocumentViews(await pageDb(), course.id);

  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="documents" />
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
        <div className="mb-8 max-w-2xl">
          <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Documents</h1>
          <p className="mt-2 text-base leading-relaxed text-muted">
            The PDFs this course&rsquo;s answers are drawn from. Uploading a changed file adds a revision; once it is ready it becomes
            current, and earlier revisions stay listed so older answers keep their sources.
          </p>
        </div>
        <DocumentsManager courseSlug={course.slug} initialDocuments={documents} maxUploadBytes={env.MAX_UPLOAD_BYTES} />
      </main>
    </>
  );
}
