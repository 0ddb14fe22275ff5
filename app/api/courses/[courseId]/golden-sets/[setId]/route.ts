import { deleteGoldenSet, listGoldenQuestions } from "@/lib/db/queries/golden";
import { instructorSet } from "@/lib/server/evaluation";
import { handler } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; setId: string }> };

/** A golden set and its questions (lib/eval format, with each row's id). Instructors only. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { handle, course, set } = await instructorSet(req, params);
  return Response.json({ set, questions: await listGoldenQuestions(handle.db, { setId: set.id, course: course.slug }) });
});

/** Deletes a set and its questions; runs made with it stay, under its name. Instructors only. */
export const DELETE = handler(async (req, { params }: Ctx) => {
  const { handle, set } = await instructorSet(req, params);
  await deleteGoldenSet(handle.db, { setId: set.id });
  return new Response(null, { status: 204 });
});
