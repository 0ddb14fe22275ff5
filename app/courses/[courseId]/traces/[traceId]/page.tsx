import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { TraceView } from "@/components/trace/trace-view";
import { SiteHeader } from "@/components/ui/site-header";
import { requirePageCourse } from "@/lib/server/page-auth";
import { getCourseTrace } from "@/lib/server/traces";

export const metadata: Metadata = { title: "Trace" };

export default async function TracePage({ params }: { params: Promise<{ courseId: string; traceId: string }> }) {
  const { courseId, traceId } = await params;
  const { course, user, role } = await requirePageCourse(courseId, "traces", "instructor");
  const trace = await getCourseTrace(course.id, traceId);
  if (!trace) notFound();
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="traces" role={role} user={{ name: user.name, email: user.email }} />
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
        <Link href={`/courses/${encodeURIComponent(course.slug)}/traces`} className="text-sm text-accent-700 hover:underline">
          ← All traces
        </Link>
        <div className="mt-4">
          <TraceView trace={trace} />
        </div>
      </main>
    </>
  );
}
