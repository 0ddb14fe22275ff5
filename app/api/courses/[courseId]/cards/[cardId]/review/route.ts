import { z } from "zod";
import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { getVisibleCard } from "@/lib/db/queries/study";
import { AppError } from "@/lib/errors";
import { handler, parseJson } from "@/lib/server/http";
import { gradeCard, parseGrade, studyNow } from "@/lib/study/decks";

type Ctx = { params: Promise<{ courseId: string; cardId: string }> };

const body = z.object({ grade: z.string() }).strict();

/** Grades a card (again / hard / good / easy) for the caller; answers with when it is due next. */
export const POST = handler(async (req, { params }: Ctx) => {
  const { courseId, cardId } = await params;
  const { db } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, courseId);
  const card = await getVisibleCard(db, { courseId: course.id, cardId, userId: user.id });
  if (!card) throw new AppError("not_found:card");
  if (card.status !== "active") throw new AppError("conflict:card", card.status === "changed" ? `This card changed in revision ${card.changedInRevision}: its schedule is paused until it is kept, edited or retired.` : "This card is retired.");
  const grade = parseGrade((await parseJson(req, body)).grade);
  const state = await gradeCard(db, { userId: user.id, courseId: course.id, cardId, memory: card.memory, grade, now: studyNow(req) });
  return Response.json({ cardId, due: state.due.toISOString(), state: state.state, reps: state.reps });
});
