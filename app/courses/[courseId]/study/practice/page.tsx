import type { Metadata } from "next";
import { Practice } from "@/components/study/practice";
import { SiteHeader } from "@/components/ui/site-header";
import { requirePageCourse } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Practice" };

export default async function PracticePage({ params, searchParams }: { params: Promise<{ courseId: string }>; searchParams: Promise<{ deck?: string }> }) {
  const { course, user, role } = await requirePageCourse((await params).courseId, "study/practice");
  const { deck } = await searchParams;
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="study" role={role} user={{ name: user.name, email: user.email }} />
      <Practice courseSlug={course.slug} deckId={deck ?? null} />
    </>
  );
}
