import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { getDocumentsWithRevisions } from "@/lib/db/queries/documents";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { submitUpload } from "@/lib/ingest/upload";
import { kickWorker } from "@/lib/server/boot";
import { requireCourseAccess } from "@/lib/auth/access";
import { uploadLimiter } from "@/lib/server/limits";
import { handler, readBody } from "@/lib/server/http";
import { tooLargeMessage, uploadBodyLimit } from "@/lib/server/upload-limit";
import { admitWork } from "@/lib/server/lifecycle";

type Ctx = { params: Promise<{ courseId: string }> };

/** Every member may list documents (students need revision numbers to show "superseded by"). */
export const GET = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course } = await requireCourseAccess(db, req, (await params).courseId);
  return Response.json({ documents: await getDocumentsWithRevisions(db, { courseId: course.id }) });
});

const uploadFields = z.object({
  documentId: z.string().min(1).max(100).optional(),
  title: z.string().trim().min(1).max(200).optional(),
  correction: z.enum(["true", "false"]).optional(),
});

/**
 * One PDF per request (multipart field "file"), so each file has its own progress and outcome.
 * While the server shuts down an upload gets 503 with Retry-After; one already being stored finishes.
 */
export const POST = handler(async (req, ctx: Ctx) => {
  const finish = admitWork("upload");
  try {
    return await upload(req, ctx);
  } finally {
    finish();
  }
});

async function upload(req: Request, { params }: Ctx): Promise<Response> {
  const { db } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, (await params).courseId, "instructor");
  await uploadLimiter.check(db, user.id);
  // Refused before it is read, or as soon as it passes the limit (lib/server/upload-limit.ts).
  const body = await readBody(req, uploadBodyLimit(env.MAX_UPLOAD_BYTES), () => new AppError("payload_too_large:upload", tooLargeMessage(env.MAX_UPLOAD_BYTES)));
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": req.headers.get("content-type") ?? "" } }).formData();
  } catch {
    throw new AppError("bad_request:upload", "The upload must be multipart form data with a “file” field.");
  }
  const file = form.get("file");
  if (!(file instanceof File)) throw new AppError("bad_request:upload", "No file was attached.");
  const fields = uploadFields.parse({
    documentId: form.get("documentId") ?? undefined,
    title: form.get("title") ?? undefined,
    correction: form.get("correction") ?? undefined,
  });
  const result = await submitUpload(db, {
    courseId: course.id,
    fileName: file.name,
    bytes: new Uint8Array(await file.arrayBuffer()),
    documentId: fields.documentId,
    title: fields.title,
    isCorrection: fields.correction === "true",
    maxBytes: env.MAX_UPLOAD_BYTES,
  });
  if (result.kind === "created") kickWorker();
  return Response.json(
    {
      kind: result.kind,
      documentId: result.document.id,
      documentTitle: result.document.title,
      revisionId: result.revision.id,
      revision: result.revision.number,
      message:
        result.kind === "unchanged"
          ? `“${file.name}” is identical to revision ${result.revision.number} of “${result.document.title}”; nothing new was created.`
          : null,
    },
    { status: result.kind === "created" ? 201 : 200 },
  );
}
