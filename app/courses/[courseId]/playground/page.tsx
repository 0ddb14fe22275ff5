import type { Metadata } from "next";
import { Playground } from "@/components/workbench/playground";
import { questionParam, WorkbenchFrame, type WorkbenchPageProps } from "@/components/workbench/workbench-frame";
import { requirePageCourse } from "@/lib/server/page-auth";
import { getCourseTrace } from "@/lib/server/traces";
import { courseKnobs } from "@/lib/server/workbench";

export const metadata: Metadata = { title: "Settings playground" };

/**
 * The knob playground. `?trace=` starts from a question students asked (with its conversation's
 * earlier questions), `?q=` from given words (a missing part). Instructors only.
 */
export default async function PlaygroundPage({ params, searchParams }: WorkbenchPageProps) {
  const access = await requirePageCourse((await params).courseId, "playground", "instructor");
  const query = await searchParams;
  const source = typeof query.trace === "string" ? await getCourseTrace(access.course.id, query.trace) : null;
  return (
    <WorkbenchFrame
      access={access}
      tool="playground"
      intro="Run a question with other search and packing settings, side by side with the defaults, to see what the settings change. Each run keeps its trace; no student sees these answers."
    >
      <Playground courseSlug={access.course.slug} defaults={await courseKnobs(access.course.id)} initialQuestion={questionParam(query.q) ?? questionParam(source?.question) ?? ""} history={source?.history ?? []} />
    </WorkbenchFrame>
  );
}
