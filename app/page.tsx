import Link from "next/link";
import { connection } from "next/server";
import { CourseActions } from "@/components/courses/course-actions";
import { SignOutButton } from "@/components/ui/sign-out-button";
import { SiteHeader } from "@/components/ui/site-header";
import { listCourseSummaries, type CourseSummary } from "@/lib/server/catalog";
import { pageUser } from "@/lib/server/page-auth";

export default async function HomePage() {
  await connection(); // the course list is read per request, never prerendered at build time
  const user = await pageUser();
  if (!user) return <SignedOut />;
  const courses = await listCourseSummaries(user.id);

  return (
    <>
      <SiteHeader user={{ name: user.name, email: user.email }} />
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
        <div className="max-w-2xl">
          <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Your courses</h1>
          <p className="mt-2 text-base leading-relaxed text-muted">
            Each course has its own notes. Answers quote them directly, so every claim can be checked against the page it came from.
          </p>
        </div>

        {courses.length === 0 ? (
          <div data-testid="courses-empty" className="mt-10 rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-14 text-center">
            <h2 className="text-lg font-medium text-ink">No courses yet</h2>
            <p className="mx-auto mt-2 max-w-md text-sm leading-relaxed text-muted">
              You are not a member of any course yet. Join one with the code your instructor gives you, or create your own below.
            </p>
          </div>
        ) : (
          <ul className="mt-10 grid gap-4 sm:grid-cols-2" aria-label="Courses">
            {courses.map((c) => (
              <CourseCard key={c.id} course={c} />
            ))}
          </ul>
        )}
        <CourseActions />
        <p className="mt-12 flex flex-wrap items-center gap-x-2 border-t border-line pt-6 text-sm text-muted">
          Signed in on a shared or lost device?
          <SignOutButton everywhere />
        </p>
      </main>
    </>
  );
}

function CourseCard({ course: c }: { course: CourseSummary }) {
  const instructor = c.role === "instructor";
  const href = `/courses/${encodeURIComponent(c.slug)}/${instructor ? "documents" : "chat"}`;
  return (
    <li data-testid="course-card" data-course-slug={c.slug}>
      <Link
        href={href}
        className="group flex h-full flex-col rounded-2xl border border-line bg-surface p-6 shadow-[0_1px_2px_rgba(0,0,0,0.03)] transition hover:border-accent-200 hover:shadow-md"
      >
        <span className="flex items-start justify-between gap-3">
          <span className="text-lg font-medium tracking-tight text-ink group-hover:text-accent-700">{c.title}</span>
          <span className="mt-1 shrink-0 rounded-full bg-canvas px-2 py-0.5 text-xs font-medium text-ink-soft ring-1 ring-inset ring-line">
            {instructor ? "Instructor" : "Student"}
          </span>
        </span>
        <span className="mt-1 font-mono text-xs text-muted">
          {c.slug}
          {instructor ? <span data-testid="join-code"> · join code {c.joinCode}</span> : null}
        </span>
        <span className="mt-6 flex items-center justify-between gap-4 text-sm text-muted">
          <span>
            {c.documentCount === 0
              ? "No documents yet"
              : `${c.documentCount} ${c.documentCount === 1 ? "document" : "documents"} · ${c.readyCount} searchable`}
          </span>
          <span className="flex items-center gap-1 font-medium text-accent-700">
            {instructor ? "Documents" : "Ask a question"}
            <span aria-hidden="true" className="transition-transform group-hover:translate-x-0.5">
              →
            </span>
          </span>
        </span>
      </Link>
    </li>
  );
}

function SignedOut() {
  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-5xl px-4 py-14 sm:px-6 sm:py-24">
        <div className="max-w-2xl">
          <h1 className="text-3xl font-semibold tracking-tight text-ink sm:text-4xl">Questions answered from your course notes</h1>
          <p className="mt-4 text-lg leading-relaxed text-muted">
            Instructors upload the course PDFs. Students ask questions and get answers built only from those notes, every claim with the exact
            quote and the page it came from, or a plain &ldquo;the notes do not say&rdquo;.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link
              href="/sign-in"
              data-testid="home-sign-in"
              className="rounded-lg bg-accent-600 px-5 py-2.5 text-[15px] font-medium text-white shadow-sm transition hover:bg-accent-700"
            >
              Sign in
            </Link>
            <Link
              href="/sign-up"
              className="rounded-lg border border-line-strong bg-surface px-5 py-2.5 text-[15px] font-medium text-ink transition hover:border-accent-200 hover:text-accent-700"
            >
              Create an account
            </Link>
          </div>
        </div>
      </main>
    </>
  );
}
