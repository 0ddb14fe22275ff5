import { z } from "zod";
import { requireCourseAccess } from "@/lib/auth/access";
import { MAX_QUESTION_CHARS } from "@/lib/chat/protocol";
import { getDb } from "@/lib/db/client";
import { getCurrentPassages } from "@/lib/db/queries/search";
import { AppError } from "@/lib/errors";
import { answerAdmission } from "@/lib/server/admission";
import { askDeps } from "@/lib/server/ask";
import { courseAskOverrides } from "@/lib/server/evaluation";
import { handler, parseJson } from "@/lib/server/http";
import { askLimiter } from "@/lib/server/limits";
import { runProbe } from "@/lib/server/workbench";

type Ctx = { params: Promise<{ courseId: string }> };

/** At most this many picked passages: a context an instructor can still read side by side. */
const MAX_PICKS = 8;

const body = z.object({
  question: z.string().trim().min(1, "Ask a question.").max(MAX_QUESTION_CHARS, `Questions are limited to ${MAX_QUESTION_CHARS} characters.`),
  oracleChunkIds: z.array(z.string().min(1).max(100)).min(1, "Pick at least one passage.").max(MAX_PICKS, `Pick at most ${MAX_PICKS} passages.`),
});

/**
 * The evidence-substitution probe: the question over the retrieved context, over the passages the
 * instructor picked (current passages of this course only) and over none. Instructors only.
 */
export const POST = handler(async (req, { params }: Ctx) => {
  const { db, ...handle } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, (await params).courseId, "instructor");
  const { question, oracleChunkIds } = await parseJson(req, body);
  const picked = [...new Set(oracleChunkIds)];
  const oracle = await getCurrentPassages(handle.client, { courseId: course.id, chunkIds: picked });
  if (oracle.length !== picked.length) throw new AppError("bad_request:request", "A picked passage is no longer in the course's current notes. Search again and pick it anew.");
  await askLimiter.check(db, user.id);
  const release = await answerAdmission.acquire(req.signal);
  try {
    const full = { db, ...handle };
    return Response.json(await runProbe(full, { courseId: course.id, question, oracle }, askDeps(full, course.id, await courseAskOverrides(db, course.id))));
  } finally {
    release();
  }
});
