import type { Metadata } from "next";
import Link from "next/link";
import { StatusBadge } from "@/components/trace/status-badge";
import { SiteHeader } from "@/components/ui/site-header";
import { listCourseTraces } from "@/lib/server/traces";
import { requirePageCourse } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Traces" };

/** Every answer in the course, newest first, each opening the trace of how it was decided. Instructors only. */
export default async function TracesPage({ params }: { params: Promise<{ courseId: string }> }) {
  const { course, user, role } = await requirePageCourse((await params).courseId, "traces", "instructor");
  const rows = await listCourseTraces(course.id);
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="traces" role={role} user={{ name: user.name, email: user.email }} />
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
        <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Traces</h1>
        <p className="mt-2 max-w-2xl text-base leading-relaxed text-muted">
          How each answer was decided: what retrieval found, what fit in the context, what was sent to the generator, and which citations
          survived validation.
        </p>
        {rows.length === 0 ? (
          <p className="mt-10 rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-12 text-center text-sm text-muted">
            No questions have been asked in this course yet.
          </p>
        ) : (
          <ul className="mt-8 divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface" data-testid="trace-list">
            {rows.map((t) => (
              <li key={t.id}>
                <Link
                  href={`/courses/${encodeURIComponent(course.slug)}/traces/${encodeURIComponent(t.id)}`}
                  className="flex flex-col gap-1 px-5 py-4 transition hover:bg-canvas sm:flex-row sm:items-center sm:gap-4"
                >
                  <span className="min-w-0 flex-1 truncate text-[15px] text-ink">{t.question}</span>
                  <span className="flex items-center gap-3 text-xs text-muted">
                    {t.origin ? <span className="rounded-md bg-canvas px-1.5 py-0.5 ring-1 ring-inset ring-line">{t.origin}</span> : null}
                    <StatusBadge status={t.status} />
                    <time dateTime={t.createdAt.toISOString()}>{t.createdAt.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}</time>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </main>
    </>
  );
}
