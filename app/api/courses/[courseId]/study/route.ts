import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { getDueCards, getProgress } from "@/lib/db/queries/study";
import { handler } from "@/lib/server/http";
import { studyNow } from "@/lib/study/decks";

type Ctx = { params: Promise<{ courseId: string }> };

/** The caller's due queue in the course (`?deck=` to keep to one deck) and their progress. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, (await params).courseId);
  const now = studyNow(req);
  const deckId = new URL(req.url).searchParams.get("deck") ?? undefined;
  const [due, progress] = await Promise.all([
    getDueCards(db, { courseId: course.id, userId: user.id, now, deckId }),
    getProgress(db, { courseId: course.id, userId: user.id, now }),
  ]);
  return Response.json({ now: now.toISOString(), due, progress });
});
