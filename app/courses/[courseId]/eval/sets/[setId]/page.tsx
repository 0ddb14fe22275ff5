import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SetEditor } from "@/components/eval/set-editor";
import { SiteHeader } from "@/components/ui/site-header";
import { getDb } from "@/lib/db/client";
import { findGoldenSet, listGoldenQuestions } from "@/lib/db/queries/golden";
import { requirePageCourse } from "@/lib/server/page-auth";
import { getCourseTrace } from "@/lib/server/traces";

export const metadata: Metadata = { title: "Golden set" };

/**
 * A golden set: its questions, a form to add one with gold passages picked from search results
 * (`?trace=` starts it from a student's question), JSONL import and export. Instructors only.
 */
export default async function SetPage({ params, searchParams }: { params: Promise<{ courseId: string; setId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { courseId, setId } = await params;
  const { course, user, role } = await requirePageCourse(courseId, "eval", "instructor");
  const { db } = await getDb();
  const set = await findGoldenSet(db, { courseId: course.id, setId });
  if (!set) notFound();
  const questions = await listGoldenQuestions(db, { setId: set.id, course: course.slug });
  const { trace } = await searchParams;
  const source = typeof trace === "string" ? await getCourseTrace(course.id, trace) : null;
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="eval" role={role} user={{ name: user.name, email: user.email }} />
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
        <Link href={`/courses/${encodeURIComponent(course.slug)}/eval`} className="text-sm text-accent-700 hover:underline">
          ← Evaluation
        </Link>
        <h1 className="mt-3 text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Golden set “{set.name}”</h1>
        <p className="mt-2 max-w-2xl text-base leading-relaxed text-muted">
          Each question says what kind it is, what it should get, and which passages hold the answer. The file format is that of lib/eval, so a set
          exported here runs with <code className="font-mono text-sm">npm run eval -- --golden FILE</code> too.
        </p>
        <SetEditor
          courseSlug={course.slug}
          setId={set.id}
          questions={questions}
          start={source ? { question: source.question, history: source.history, declined: source.status === "insufficient_evidence" } : null}
        />
      </main>
    </>
  );
}
