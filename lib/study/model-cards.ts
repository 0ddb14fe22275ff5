import "server-only";
/**
 * Study cards written by a model (when GENERATION_MODEL is set): question/answer pairs through
 * structured output, each quote checked by the answerer's own citation validator. A card whose
 * quote does not check out is dropped and counted, never shown.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, Output } from "ai";
import { z } from "zod";
import type { LlmConfig } from "@/lib/ai/generators";
import { AppError } from "@/lib/errors";
import { flashcardPrompt } from "@/lib/rag/prompts";
import type { LabelledPassage } from "@/lib/rag/types";
import { validateClaim } from "@/lib/rag/validate";
import type { DraftCard, StudyPage } from "./generate";

export const flashcardSchema = z.object({
  cards: z.array(z.object({ question: z.string(), answer: z.string(), evidence: z.object({ sourceId: z.string(), quote: z.string() }) })),
});

/** Each chunk of the page as a passage under a request-local label, as the answerer sends them. */
function pagePassages(page: StudyPage): LabelledPassage[] {
  return page.chunks.map((c, i) => ({
    label: `S${i + 1}`,
    chunkId: c.chunkId,
    revisionId: page.revisionId,
    documentId: page.documentId,
    documentTitle: page.documentTitle,
    revisionNumber: page.revisionNumber,
    isCorrection: false,
    uploadedAt: "",
    pdfPage: page.pdfPage,
    pageLabel: page.pageLabel,
    text: page.text.slice(c.charStart, c.charEnd),
    charStart: c.charStart,
  }));
}

export type CardWriter = (page: StudyPage) => Promise<{ cards: DraftCard[]; dropped: number }>;

/** One request per page; an HTTP failure or output that is not the schema is a coded error. */
export function modelCardWriter(config: LlmConfig, { perPage }: { perPage: number }): CardWriter {
  const model = createOpenAI({ baseURL: config.baseURL, apiKey: config.apiKey ?? "not-needed" }).chat(config.model);
  return async (page) => {
    const passages = pagePassages(page);
    if (passages.length === 0) return { cards: [], dropped: 0 };
    const [system, user] = flashcardPrompt({ passages, maxCards: perPage });
    let output: z.infer<typeof flashcardSchema>;
    try {
      ({ output } = await generateText({
        model,
        instructions: system.content,
        messages: [{ role: "user", content: user.content }],
        output: Output.object({ schema: flashcardSchema }),
        temperature: config.temperature,
        maxRetries: config.maxRetries,
        timeout: config.timeoutMs,
      }));
    } catch (e) {
      console.error(`[study] the model's cards for ${page.documentTitle} p.${page.pdfPage} failed:`, e);
      throw new AppError("unavailable:deck", `The model could not write cards for ${page.documentTitle}, PDF page ${page.pdfPage}: ${(e as Error).message}`);
    }
    const registry = new Map(passages.map((p) => [p.label, p]));
    const cards: DraftCard[] = [];
    let dropped = 0;
    for (const [i, card] of output.cards.slice(0, perPage).entries()) {
      const { claim, problems } = validateClaim({ text: card.question, evidence: [card.evidence] }, { partIndex: 0, claimIndex: i }, registry);
      const citation = claim.citations[0];
      if (problems.length > 0 || !citation || !card.question.trim() || !card.answer.trim()) {
        dropped++;
        continue;
      }
      cards.push({
        kind: "question",
        front: card.question.trim(),
        back: card.answer.trim(),
        answerType: "DEFINITION",
        distractors: [],
        documentId: citation.documentId,
        documentTitle: citation.documentTitle,
        revisionId: citation.revisionId,
        revisionNumber: citation.revision,
        chunkId: citation.chunkId,
        pdfPage: citation.pdfPage,
        pageLabel: citation.pageLabel,
        quote: citation.quote,
        charStart: citation.charStart,
        charEnd: citation.charEnd,
      });
    }
    return { cards, dropped };
  };
}
