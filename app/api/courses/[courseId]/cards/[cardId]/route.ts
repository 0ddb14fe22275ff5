import { z } from "zod";
import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { getCurrentRevision, getVisibleCard, resolveCard } from "@/lib/db/queries/study";
import { AppError } from "@/lib/errors";
import { handler, parseJson } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; cardId: string }> };

const body = z.discriminatedUnion("action", [
  z.object({ action: z.literal("keep") }).strict(),
  z.object({ action: z.literal("retire") }).strict(),
  z.object({ action: z.literal("edit"), front: z.string().trim().min(1).max(2000), back: z.string().trim().min(1).max(2000) }).strict(),
]);

/** Keeps, edits or retires a card (a changed one resumes its schedule): the deck's owner, or an instructor for a published deck. */
export const PATCH = handler(async (req, { params }: Ctx) => {
  const { courseId, cardId } = await params;
  const { db } = await getDb();
  const { course, user, role } = await requireCourseAccess(db, req, courseId);
  const card = await getVisibleCard(db, { courseId: course.id, cardId, userId: user.id });
  if (!card) throw new AppError("not_found:card");
  if (card.deck.ownerId !== user.id && !(card.deck.visibility === "course" && role === "instructor")) {
    throw new AppError("forbidden:card", "Only the deck's owner or the course's instructors can change its cards.");
  }
  const change = await parseJson(req, body);
  const current = await getCurrentRevision(db, { documentId: card.documentId });
  await resolveCard(db, { cardId, ...change, revision: current?.number ?? card.checkedRevision });
  return Response.json({ cardId, action: change.action });
});
