import { z } from "zod";
import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { listEvalRuns, requireGoldenSet } from "@/lib/db/queries/golden";
import { runConfigSchema } from "@/lib/eval/course-run";
import { assertNoRunningRun, startEvalRun } from "@/lib/server/evaluation";
import { handler, parseJson } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string }> };

const body = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("single"), setId: z.string().min(1), config: runConfigSchema.default({}) }),
  z.object({ kind: z.literal("ab"), setId: z.string().min(1), config: runConfigSchema.default({}), vs: runConfigSchema }),
  z.object({ kind: z.literal("chunk_sizes"), setId: z.string().min(1), config: runConfigSchema.default({}), sizes: z.array(z.number().int().min(20).max(2000)).min(2).max(4) }),
]);

/** The course's evaluation runs, newest first, with their headline figures. Instructors only. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, (await params).courseId, "instructor");
  return Response.json({ runs: await listEvalRuns(db, { courseId: course.id, limit: 50 }) });
});

/** Starts a run (one configuration, an A/B pair, or the chunk-size experiment) and answers at once; its progress is in GET eval-runs/[runId]. One run at a time per course. Instructors only. */
export const POST = handler(async (req, { params }: Ctx) => {
  const handle = await getDb();
  const { course } = await requireCourseAccess(handle.db, req, (await params).courseId, "instructor");
  const { setId, ...request } = await parseJson(req, body);
  const set = await requireGoldenSet(handle.db, { courseId: course.id, setId });
  await assertNoRunningRun(handle.db, course.id);
  const { run } = await startEvalRun(handle, { course, set, request, wait: false });
  return Response.json({ run }, { status: 202 });
});
