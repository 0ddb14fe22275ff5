import type { Metadata } from "next";
import { Probe } from "@/components/workbench/probe";
import { questionParam, WorkbenchFrame, type WorkbenchPageProps } from "@/components/workbench/workbench-frame";
import { requirePageCourse } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Evidence probe" };

/** The evidence-substitution probe; `?q=` starts from a question. Instructors only. */
export default async function ProbePage({ params, searchParams }: WorkbenchPageProps) {
  const access = await requirePageCourse((await params).courseId, "probe", "instructor");
  return (
    <WorkbenchFrame
      access={access}
      tool="probe"
      intro="Why was a question not answered? Run it three times, changing only the context: what retrieval found, passages you pick, and nothing. If your passages answer and retrieval’s do not, the search or packing lost the evidence; if neither does, the notes or the generator are the problem."
    >
      <Probe courseSlug={access.course.slug} initialQuestion={questionParam((await searchParams).q) ?? ""} />
    </WorkbenchFrame>
  );
}
