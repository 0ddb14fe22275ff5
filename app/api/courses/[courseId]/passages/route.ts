import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { searchLexical } from "@/lib/db/queries/search";
import { AppError } from "@/lib/errors";
import { handler } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string }> };

const MAX_QUERY_CHARS = 200;
const RESULTS = 8;

/** Search over the course's current passages (`?q=`), for the probe's picks. Instructors only. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { db, client } = await getDb();
  const { course } = await requireCourseAccess(db, req, (await params).courseId, "instructor");
  const q = new URL(req.url).searchParams.get("q")?.trim() ?? "";
  if (q.length > MAX_QUERY_CHARS) throw new AppError("bad_request:request", `Searches are limited to ${MAX_QUERY_CHARS} characters.`);
  const { hits } = q ? await searchLexical(client, { courseId: course.id, terms: [q], limit: RESULTS }) : { hits: [] };
  return Response.json({
    passages: hits.map(({ passage: p }) => ({ chunkId: p.chunkId, documentTitle: p.documentTitle, pdfPage: p.pdfPage, pageLabel: p.pageLabel, text: p.text })),
  });
});
