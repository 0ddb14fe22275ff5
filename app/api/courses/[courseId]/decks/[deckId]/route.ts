import { z } from "zod";
import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { deleteDeck, getDeckCards, getVisibleDeck, publishDeck } from "@/lib/db/queries/study";
import { AppError } from "@/lib/errors";
import { handler, parseJson } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; deckId: string }> };

/** A deck with its cards (and the caller's memory state of each), or its generation progress. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { courseId, deckId } = await params;
  const { db } = await getDb();
  const { course, user, role } = await requireCourseAccess(db, req, courseId);
  const deck = await getVisibleDeck(db, { courseId: course.id, deckId, userId: user.id });
  if (!deck) throw new AppError("not_found:deck");
  const cards = deck.status === "ready" ? await getDeckCards(db, { deckId, userId: user.id }) : [];
  const canEdit = deck.ownerId === user.id || (deck.visibility === "course" && role === "instructor");
  return Response.json({ deck, cards, canEdit, canPublish: role === "instructor" && deck.ownerId === user.id });
});

const patchBody = z.object({ published: z.boolean() }).strict();

/** Publishes a deck to the course (or takes it back): the course's instructors only, their own decks. */
export const PATCH = handler(async (req, { params }: Ctx) => {
  const { courseId, deckId } = await params;
  const { db } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, courseId, "instructor");
  const deck = await getVisibleDeck(db, { courseId: course.id, deckId, userId: user.id });
  if (!deck) throw new AppError("not_found:deck");
  if (deck.status !== "ready") throw new AppError("conflict:deck", "The deck is still being generated.");
  const { published } = await parseJson(req, patchBody);
  await publishDeck(db, { deckId, publish: published });
  return Response.json({ deckId, visibility: published ? "course" : "private" });
});

/** Deletes a deck: its owner, or an instructor for a published one. */
export const DELETE = handler(async (req, { params }: Ctx) => {
  const { courseId, deckId } = await params;
  const { db } = await getDb();
  const { course, user, role } = await requireCourseAccess(db, req, courseId);
  const deck = await getVisibleDeck(db, { courseId: course.id, deckId, userId: user.id });
  if (!deck) throw new AppError("not_found:deck");
  if (deck.ownerId !== user.id && !(deck.visibility === "course" && role === "instructor")) throw new AppError("forbidden:deck", "Only the deck's owner or the course's instructors can delete it.");
  await deleteDeck(db, { deckId });
  return new Response(null, { status: 204 });
});
