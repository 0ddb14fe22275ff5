import { deleteGoldenQuestion } from "@/lib/db/queries/golden";
import { AppError } from "@/lib/errors";
import { instructorSet } from "@/lib/server/evaluation";
import { handler } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; setId: string; questionId: string }> };

/** Removes one question from the set. Instructors only. */
export const DELETE = handler(async (req, { params }: Ctx) => {
  const { handle, set } = await instructorSet(req, params);
  if (!(await deleteGoldenQuestion(handle.db, { setId: set.id, questionId: (await params).questionId }))) throw new AppError("not_found:golden_set", "The question is not in this set.");
  return new Response(null, { status: 204 });
});
