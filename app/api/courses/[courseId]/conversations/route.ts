import { getDb } from "@/lib/db/client";
import { listConversations } from "@/lib/db/queries/answers";
import { requireCourse } from "@/lib/server/courses";
import { handler } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string }> };

export const GET = handler(async (_req, { params }: Ctx) => {
  const { db } = await getDb();
  const course = await requireCourse(db, (await params).courseId);
  return Response.json({ conversations: await listConversations(db, { courseId: course.id, userId: null }) });
});
