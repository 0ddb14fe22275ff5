import { requireCourseAccess } from "@/lib/auth/access";
import { getDb } from "@/lib/db/client";
import { getDeckCards, getVisibleDeck } from "@/lib/db/queries/study";
import { AppError } from "@/lib/errors";
import { handler } from "@/lib/server/http";
import { toAnkiTsv, toDeckJson, toExportCard, type ExportCard } from "@/lib/study/export";

type Ctx = { params: Promise<{ courseId: string; deckId: string }> };

const fileName = (title: string, ext: string) => `${title.replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-|-$/g, "").slice(0, 60) || "deck"}.${ext}`;

/** `?format=tsv` (Anki) or `json` (this app's import), as a download. Retired cards are left out. */
export const GET = handler(async (req, { params }: Ctx) => {
  const { courseId, deckId } = await params;
  const { db } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, courseId);
  const deck = await getVisibleDeck(db, { courseId: course.id, deckId, userId: user.id });
  if (!deck) throw new AppError("not_found:deck");
  const format = new URL(req.url).searchParams.get("format") ?? "tsv";
  if (format !== "tsv" && format !== "json") throw new AppError("bad_request:deck", "The export format must be tsv or json.");
  const cards: ExportCard[] = (await getDeckCards(db, { deckId, userId: user.id }))
    .filter((c) => c.status !== "retired")
    .map(toExportCard);
  const body = format === "tsv" ? toAnkiTsv(cards) : JSON.stringify(toDeckJson(deck.title, cards), null, 2);
  return new Response(body, {
    headers: {
      "content-type": format === "tsv" ? "text/tab-separated-values; charset=utf-8" : "application/json; charset=utf-8",
      "content-disposition": `attachment; filename="${fileName(deck.title, format === "tsv" ? "txt" : "json")}"`,
    },
  });
});
