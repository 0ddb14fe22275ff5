import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { handler, parseJson } from "@/lib/server/http";
import { importDeck } from "@/lib/study/decks";
import { deckJsonSchema } from "@/lib/study/export";

type Ctx = { params: Promise<{ courseId: string }> };

/** Imports a deck this app exported (JSON) as a private deck of the caller; cards whose citation does not check out are dropped and counted. */
export const POST = handler(async (req, { params }: Ctx) => {
  const { db } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, (await params).courseId);
  const json = await parseJson(req, deckJsonSchema);
  const { deck, imported, dropped } = await importDeck(db, { courseId: course.id, ownerId: user.id, json });
  return Response.json({ deck, imported, dropped }, { status: 201 });
});
