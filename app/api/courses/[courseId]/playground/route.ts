import { z } from "zod";
import { requireCourseAccess } from "@/lib/auth/access";
import { MAX_QUESTION_CHARS } from "@/lib/chat/protocol";
import { getDb } from "@/lib/db/client";
import { answerAdmission } from "@/lib/server/admission";
import { handler, parseJson } from "@/lib/server/http";
import { askLimiter } from "@/lib/server/limits";
import { knobsSchema, runPlayground } from "@/lib/server/workbench";

type Ctx = { params: Promise<{ courseId: string }> };

const question = z.string().trim().min(1, "Ask a question.").max(MAX_QUESTION_CHARS, `Questions are limited to ${MAX_QUESTION_CHARS} characters.`);
const body = z.object({ question, history: z.array(question).max(20).default([]), knobs: knobsSchema });

/**
 * The knob playground: the question with the default settings and with the instructor's, both
 * traced, neither stored as an answer. Instructors only; the runs wait their turn beside students'
 * answers and count against the instructor's question rate.
 */
export const POST = handler(async (req, { params }: Ctx) => {
  const { db, ...handle } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, (await params).courseId, "instructor");
  const { question, history, knobs } = await parseJson(req, body);
  await askLimiter.check(db, user.id);
  const release = await answerAdmission.acquire(req.signal);
  try {
    return Response.json(await runPlayground({ db, ...handle }, { courseId: course.id, question, history, knobs }));
  } finally {
    release();
  }
});
