import "server-only";
import type { Db } from "@/lib/db/client";
import { getCardsToCheck, getCurrentRevision, getRevisionTexts, recordCardChecks } from "@/lib/db/queries/study";

/**
 * The revision check, after a revision of the document became current: every active card whose
 * quote is gone from the current text is marked "changed in revision N" (with the passage that
 * replaced it when one resembles it). One read of the pages, one write.
 */
export async function checkDocumentCards(db: Db, { documentId }: { documentId: string }): Promise<{ checked: number; changed: number }> {
  const current = await getCurrentRevision(db, { documentId });
  if (!current) return { checked: 0, changed: 0 };
  const toCheck = await getCardsToCheck(db, { documentId, revision: current.number });
  // Most documents have no cards: ingestion then pays two small queries, never a read of the pages,
  // nor the load of wink-nlp's model (about 40 MB) that comparing quotes needs.
  if (toCheck.length === 0) return { checked: 0, changed: 0 };
  const { checkQuote } = await import("./revision");
  const texts = await getRevisionTexts(db, { revisionId: current.revisionId });
  const unchanged: string[] = [];
  const changed: Array<{ cardId: string; newPassage: string | null; newPdfPage: number | null }> = [];
  for (const card of toCheck) {
    const result = checkQuote(card.quote, texts);
    if (!result.changed) unchanged.push(card.id);
    else changed.push({ cardId: card.id, newPassage: result.newPassage?.text ?? null, newPdfPage: result.newPassage?.pdfPage ?? null });
  }
  await recordCardChecks(db, { revision: current.number, unchanged, changed });
  return { checked: toCheck.length, changed: changed.length };
}
