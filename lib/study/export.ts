/**
 * Export and import of decks. TSV for Anki (front, back, source; Anki's "Import File" reads a
 * tab-separated file with `#separator:tab` and `#html:false` headers); JSON that this app reads
 * back, each card keeping its citation so an import is checked against the notes like a claim.
 */
import { z } from "zod";

export interface ExportCard {
  kind: "definition" | "cloze" | "question";
  front: string;
  back: string;
  answerType: string;
  distractors: string[];
  documentTitle: string;
  revision: number;
  pdfPage: number;
  pageLabel: string | null;
  quote: string;
  charStart: number;
  charEnd: number;
}

/** A stored card (with its document's title and revision number) as exported. */
export function toExportCard(c: Omit<ExportCard, "revision"> & { revisionNumber: number }): ExportCard {
  const { kind, front, back, answerType, distractors, documentTitle, pdfPage, pageLabel, quote, charStart, charEnd } = c;
  return { kind, front, back, answerType, distractors, documentTitle, revision: c.revisionNumber, pdfPage, pageLabel, quote, charStart, charEnd };
}

export const sourceLine = (c: Pick<ExportCard, "documentTitle" | "pdfPage" | "revision">) => `${c.documentTitle} — PDF page ${c.pdfPage}, revision ${c.revision}`;

/** Tabs and line breaks inside a field would split Anki's columns: they become spaces. */
const field = (s: string) => s.replace(/[\t\r\n]+/g, " ").trim();

export function toAnkiTsv(cards: ExportCard[]): string {
  const lines = ["#separator:tab", "#html:false", "#columns:Front\tBack\tSource"];
  for (const c of cards) lines.push([c.front, c.back, sourceLine(c)].map(field).join("\t"));
  return `${lines.join("\n")}\n`;
}

export const deckJsonSchema = z.object({
  format: z.literal("study-assistant-deck"),
  version: z.literal(1),
  title: z.string().min(1).max(200),
  cards: z
    .array(
      z.object({
        kind: z.enum(["definition", "cloze", "question"]),
        front: z.string().min(1).max(2000),
        back: z.string().min(1).max(2000),
        answerType: z.string().min(1).max(40),
        distractors: z.array(z.string().max(2000)).max(10),
        documentTitle: z.string().min(1),
        revision: z.number().int().min(1),
        pdfPage: z.number().int().min(1),
        pageLabel: z.string().nullable(),
        quote: z.string().min(1),
        charStart: z.number().int().min(0),
        charEnd: z.number().int().min(0),
      }),
    )
    .min(1)
    .max(5000),
});
export type DeckJson = z.infer<typeof deckJsonSchema>;

export function toDeckJson(title: string, cards: ExportCard[]): DeckJson {
  return { format: "study-assistant-deck", version: 1, title, cards };
}
