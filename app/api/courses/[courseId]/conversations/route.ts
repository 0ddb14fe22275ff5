import { getDb } from "@/lib/db/client";
import { listConversations } from "@/lib/db/queries/answers";
import { requireCourseAccess } from "@/lib/auth/access";
import { handler } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string }> };

/** Only the caller's own conversations, whatever their role. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, (await params).courseId);
  return Response.json({ conversations: await listConversations(db, { courseId: course.id, userId: user.id }) });
});
