import { listGoldenQuestions } from "@/lib/db/queries/golden";
import { goldenJsonl } from "@/lib/eval/jsonl";
import { instructorSet } from "@/lib/server/evaluation";
import { handler } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; setId: string }> };

/** The set as JSONL in the lib/eval format (`npm run eval -- --golden FILE` reads it), as a download. Instructors only. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { handle, course, set } = await instructorSet(req, params);
  const questions = (await listGoldenQuestions(handle.db, { setId: set.id, course: course.slug })).map((q) => q.golden);
  return new Response(goldenJsonl(questions), {
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${course.slug}-${set.name.replace(/[^\p{L}\p{N}._-]+/gu, "-")}.jsonl"`,
      "cache-control": "no-store",
    },
  });
});
