import type { Metadata } from "next";
import { DocumentsManager } from "@/components/documents/documents-manager";
import { SiteHeader } from "@/components/ui/site-header";
import { env } from "@/lib/env";
import { listDocumentViews, pageDb } from "@/lib/server/catalog";
import { requirePageCourse } from "@/lib/server/page-auth";

type Props = { params: Promise<{ courseId: string }> };

export const metadata: Metadata = { title: "Documents" };

/**
 * The instructor's documents page. Signed out → sign-in (and back); not a member or no such
 * course → 404; a student → the course's chat. The same rules as the documents API.
 */
export default async function DocumentsPage({ params }: Props) {
  const { course, user, role } = await requirePageCourse((await params).courseId, "documents", "instructor");
  const documents = await listDocumentViews(await pageDb(), course.id);

  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="documents" role={role} user={{ name: user.name, email: user.email }} />
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
