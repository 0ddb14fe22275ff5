import type { Metadata } from "next";
import { ChatApp } from "@/components/chat/chat-app";
import { SiteHeader } from "@/components/ui/site-header";
import { demoCourse } from "@/lib/demo/course";
import { requirePageCourse } from "@/lib/server/page-auth";

type Props = {
  params: Promise<{ courseId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

export const metadata: Metadata = { title: "Ask" };

/** Example questions for the empty state: the demo course's cover an answer, a partial answer and a definition. */
const DEMO_EXAMPLES = ["When is Assignment 2 due?", "What is the late penalty, and when is Assignment 4 due?", "What does atomicity mean?"];
const GENERIC_EXAMPLES = ["When is the first assignment due?", "What is the policy on late submissions?", "What are the main topics of this week's lecture notes?"];

const SECTION_NAMES: Record<string, string> = {
  documents: "documents",
  questions: "questions",
  playground: "workbench",
  probe: "workbench",
  traces: "traces",
  eval: "evaluation",
};

/**
 * The course chat, for every member of the course. Signed out → sign-in (and back here); not a
 * member or no such course → 404. `?c=<conversation>` opens one of the member's conversations.
 */
export default async function ChatPage({ params, searchParams }: Props) {
  const { course, user, role } = await requirePageCourse((await params).courseId, "chat");
  const query = await searchParams;
  const c = query.c;
  const conversationId = typeof c === "string" && c.length > 0 && c.length <= 100 ? c : null;
  const denied = typeof query.denied === "string" ? (SECTION_NAMES[query.denied] ?? null) : null;

  return (
    <div className="flex h-dvh flex-col overflow-hidden">
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="chat" role={role} user={{ name: user.name, email: user.email }} />
      <ChatApp
        key={`${course.slug}:${user.id}`}
        courseSlug={course.slug}
        courseTitle={course.title}
        initialConversationId={conversationId}
        examples={course.slug === demoCourse.slug ? DEMO_EXAMPLES : GENERIC_EXAMPLES}
        notice={denied ? `The course’s ${denied} page is for its instructors; you can ask questions here.` : null}
      />
    </div>
  );
}
