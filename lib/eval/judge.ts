/**
 * The model judge of an evaluation run (only when a model is configured): is the answer correct
 * given the expected answer and the gold evidence, and is each claim supported by its quotes?
 * The prompt is fixed here and stored with the run, so a reader sees what the model was asked.
 */
import { z } from "zod";
import type { ChatMessage } from "@/lib/rag/pipeline";
import type { JudgeVerdict, SetRecord } from "./set-metrics";

export const JUDGE_SYSTEM_PROMPT = [
  "You grade the answers of a course assistant against a teacher's answer key.",
  "You receive the question, the expected answer, the gold evidence from the course notes, and the assistant's claims, each with the quotes it cited.",
  'Reply with JSON only: {"correct": boolean, "supported": boolean[]}.',
  '"correct": the claims answer the question as the expected answer and the gold evidence do, without contradicting them.',
  '"supported": one entry per claim, in order: true when the claim\'s quotes alone state what the claim says.',
].join("\n");

/** The judge's request for one answered question. */
export function judgeMessages(r: SetRecord): ChatMessage[] {
  const claims = r.parts.flatMap((p) => p.claims);
  const lines = [
    `Question: ${[...(r.golden.history ?? []), r.golden.question].join(" → ")}`,
    `Expected answer: ${r.golden.answer ?? "(none given)"}`,
    "Gold evidence:",
    ...(r.golden.pages ?? []).map((g) => `- ${g.document}, PDF page ${g.pdfPage}: ${g.quote ?? "(the whole page)"}`),
    "Claims:",
    ...claims.map((c, i) => `${i + 1}. ${c.text}\n   quotes: ${c.citations.map((q) => `“${q.quote}”`).join(" ")}`),
  ];
  return [
    { role: "system", content: JUDGE_SYSTEM_PROMPT },
    { role: "user", content: lines.join("\n") },
  ];
}

const replySchema = z.object({ correct: z.boolean(), supported: z.array(z.boolean()) });

/** The verdict in a judge's reply, or null when the reply is not the asked JSON (the question then counts as not judged). */
export function parseJudgeReply(text: string, claims: number): JudgeVerdict | null {
  const json = text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1);
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  const reply = replySchema.safeParse(parsed);
  if (!reply.success || reply.data.supported.length !== claims) return null;
  return { correct: reply.data.correct, supportedClaims: reply.data.supported.filter(Boolean).length, claims };
}
