import { addGoldenQuestions } from "@/lib/db/queries/golden";
import { AppError } from "@/lib/errors";
import { GoldenFormatError, parseGoldenJsonl } from "@/lib/eval/jsonl";
import { instructorSet } from "@/lib/server/evaluation";
import { handler, readBody } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; setId: string }> };

/** A JSONL file of a few thousand questions fits easily. */
const MAX_JSONL_BYTES = 2 * 1024 * 1024;

/**
 * Appends the questions of a JSONL body (the lib/eval format) to the set: all of them, or none
 * with the first bad line named. Instructors only.
 */
export const POST = handler(async (req, { params }: Ctx) => {
  const { handle, set } = await instructorSet(req, params);
  const bytes = await readBody(req, MAX_JSONL_BYTES, () => new AppError("payload_too_large:golden_set", `The file is larger than the ${MAX_JSONL_BYTES / 1024 / 1024} MB limit.`));
  let questions;
  try {
    questions = parseGoldenJsonl(new TextDecoder().decode(bytes), "line");
  } catch (e) {
    if (e instanceof GoldenFormatError) throw new AppError("bad_request:golden_set", `Nothing was imported. ${e.message}`);
    throw e;
  }
  if (questions.length === 0) throw new AppError("bad_request:golden_set", "The file holds no questions.");
  await addGoldenQuestions(handle.db, { setId: set.id, questions });
  return Response.json({ imported: questions.length }, { status: 201 });
});
