import type { Metadata } from "next";
import { StudyHome } from "@/components/study/study-home";
import { SiteHeader } from "@/components/ui/site-header";
import { requirePageCourse } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Study" };

/** Decks, progress and new decks, for every member of the course. */
export default async function StudyPage({ params }: { params: Promise<{ courseId: string }> }) {
  const { course, user, role } = await requirePageCourse((await params).courseId, "study");
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="study" role={role} user={{ name: user.name, email: user.email }} />
      <StudyHome courseSlug={course.slug} role={role} userId={user.id} />
    </>
  );
}
