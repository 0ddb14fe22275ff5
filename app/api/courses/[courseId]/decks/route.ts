import { z } from "zod";
import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { listDecks } from "@/lib/db/queries/study";
import { AppError } from "@/lib/errors";
import { handler, parseJson } from "@/lib/server/http";
import { generateDeck } from "@/lib/study/decks";

type Ctx = { params: Promise<{ courseId: string }> };

/** The decks a member sees: the course's published decks and their own private ones. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, (await params).courseId);
  return Response.json({ decks: await listDecks(db, { courseId: course.id, userId: user.id }) });
});

const createBody = z
  .object({
    title: z.string().trim().min(1).max(200).optional(),
    documentId: z.string().min(1).max(100).nullish(),
    pageFrom: z.number().int().min(1).max(100_000).nullish(),
    pageTo: z.number().int().min(1).max(100_000).nullish(),
  })
  .strict();

/** Generates a private deck of the caller from a document, a page range or the whole course; it fills in the background (poll the deck for progress). */
export const POST = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, (await params).courseId);
  const body = await parseJson(req, createBody);
  if (body.pageFrom && body.pageTo && body.pageFrom > body.pageTo) throw new AppError("bad_request:deck", "The page range starts after it ends.");
  if ((body.pageFrom || body.pageTo) && !body.documentId) throw new AppError("bad_request:deck", "A page range needs a document.");
  const title = body.title ?? (body.documentId ? "Deck" : `${course.title} — whole course`);
  const deck = await generateDeck(db, { courseId: course.id, ownerId: user.id, title, scope: body, wait: false });
  return Response.json({ deck }, { status: 201 });
});
