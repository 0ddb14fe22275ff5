import { addGoldenQuestions } from "@/lib/db/queries/golden";
import { goldenQuestionFromPicks, instructorSet, newGoldenQuestionSchema } from "@/lib/server/evaluation";
import { handler, parseJson } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; setId: string }> };

/** Adds one question, its gold passages picked from search results (current passages of this course only). Instructors only. */
export const POST = handler(async (req, { params }: Ctx) => {
  const { handle, course, set } = await instructorSet(req, params);
  const input = await parseJson(req, newGoldenQuestionSchema);
  const question = await goldenQuestionFromPicks(handle, { courseId: course.id, courseSlug: course.slug, setId: set.id, input });
  await addGoldenQuestions(handle.db, { setId: set.id, questions: [question] });
  return Response.json({ question }, { status: 201 });
});
