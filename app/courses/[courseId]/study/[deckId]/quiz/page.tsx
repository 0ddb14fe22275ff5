import type { Metadata } from "next";
import { Quiz } from "@/components/study/quiz";
import { SiteHeader } from "@/components/ui/site-header";
import { requirePageCourse } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Quiz" };

const DEFAULT_QUESTIONS = 10;

export default async function QuizPage({ params, searchParams }: { params: Promise<{ courseId: string; deckId: string }>; searchParams: Promise<{ n?: string }> }) {
  const { courseId, deckId } = await params;
  const { course, user, role } = await requirePageCourse(courseId, "study");
  const n = Number((await searchParams).n);
  const size = Number.isInteger(n) && n >= 1 && n <= 100 ? n : DEFAULT_QUESTIONS;
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="study" role={role} user={{ name: user.name, email: user.email }} />
      <Quiz courseSlug={course.slug} deckId={deckId} size={size} />
    </>
  );
}
