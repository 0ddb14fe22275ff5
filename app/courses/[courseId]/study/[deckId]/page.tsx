import type { Metadata } from "next";
import { DeckView } from "@/components/study/deck-view";
import { SiteHeader } from "@/components/ui/site-header";
import { requirePageCourse } from "@/lib/server/page-auth";

export const metadata: Metadata = { title: "Deck" };

export default async function DeckPage({ params }: { params: Promise<{ courseId: string; deckId: string }> }) {
  const { courseId, deckId } = await params;
  const { course, user, role } = await requirePageCourse(courseId, "study");
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="study" role={role} user={{ name: user.name, email: user.email }} />
      <DeckView courseSlug={course.slug} deckId={deckId} />
    </>
  );
}
