import Link from "next/link";
import { connection } from "next/server";
import { SiteHeader } from "@/components/ui/site-header";
import { listCourseSummaries } from "@/lib/server/catalog";

export default async function HomePage() {
  await connection(); // the course list is read per request, never prerendered at build time
  const courses = await listCourseSummaries();

  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
        <div className="max-w-2xl">
          <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Your courses</h1>
          <p className="mt-2 text-base leading-relaxed text-muted">
            Each course has its own notes. Answers quote them directly, so every claim can be checked against the page it came from.
          </p>
        </div>

        {courses.length === 0 ? (
          <div className="mt-10 rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-14 text-center">
            <h2 className="text-lg font-medium text-ink">No courses yet</h2>
            <p className="mx-auto mt-2 max-w-md text-sm leading-relaxed text-muted">
              Create one from the command line with <code className="rounded bg-canvas px-1.5 py-0.5 font-mono text-[13px] text-ink-soft">npm run ingest -- --course my-course notes.pdf</code>,
              or start the server with <code className="rounded bg-canvas px-1.5 py-0.5 font-mono text-[13px] text-ink-soft">SEED_DEMO=1</code> on an empty
              database to get the demo course.
            </p>
          </div>
        ) : (
          <ul className="mt-10 grid gap-4 sm:grid-cols-2" aria-label="Courses">
            {courses.map((c) => (
              <li key={c.id} data-testid="course-card">
                <Link
                  href={`/courses/${encodeURIComponent(c.slug)}/documents`}
                  className="group flex h-full flex-col rounded-2xl border border-line bg-surface p-6 shadow-[0_1px_2px_rgba(0,0,0,0.03)] transition hover:border-accent-200 hover:shadow-md"
                >
                  <span className="text-lg font-medium tracking-tight text-ink group-hover:text-accent-700">{c.title}</span>
                  <span className="mt-1 font-mono text-xs text-muted">{c.slug}</span>
                  <span className="mt-6 flex items-center justify-between gap-4 text-sm text-muted">
                    <span>
                      {c.documentCount === 0
                        ? "No documents yet"
                        : `${c.documentCount} ${c.documentCount === 1 ? "document" : "documents"} · ${c.readyCount} searchable`}
                    </span>
                    <span aria-hidden="true" className="text-accent-600 transition-transform group-hover:translate-x-0.5">
                      →
                    </span>
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
