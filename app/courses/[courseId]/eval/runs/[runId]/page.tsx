import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { kindLabel } from "@/components/eval/run-kind";
import { RunView, type RunJson } from "@/components/eval/run-view";
import { SiteHeader } from "@/components/ui/site-header";
import { getDb } from "@/lib/db/client";
import { getEvalRun } from "@/lib/db/queries/golden";
import { defaultRunConfig } from "@/lib/server/evaluation";
import { requirePageCourse } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Evaluation run" };

/** One evaluation run, opened while it runs (progress) or any time later (its stored report). Instructors only. */
export default async function RunPage({ params }: { params: Promise<{ courseId: string; runId: string }> }) {
  const { courseId, runId } = await params;
  const { course, user, role } = await requirePageCourse(courseId, "eval", "instructor");
  const { db } = await getDb();
  const run = await getEvalRun(db, { courseId: course.id, runId });
  if (!run) notFound();
  const { minScore } = await defaultRunConfig(db, course.id);
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="eval" role={role} user={{ name: user.name, email: user.email }} />
      <main className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
        <Link href={`/courses/${encodeURIComponent(course.slug)}/eval`} className="text-sm text-accent-700 hover:underline">
          ← Evaluation
        </Link>
        <h1 className="mt-3 text-2xl font-semibold tracking-tight text-ink sm:text-3xl">
          {kindLabel[run.kind]} · set “{run.setName}”
        </h1>
        <p className="mt-1 text-sm text-muted">Started {run.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</p>
        <RunView courseSlug={course.slug} initial={JSON.parse(JSON.stringify(run)) as RunJson} floor={minScore} />
      </main>
    </>
  );
}
