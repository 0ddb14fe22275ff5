import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { createConversation, getConversation, getConversationMessages, saveExchange } from "@/lib/db/queries/answers";
import { AppError } from "@/lib/errors";
import { askAndTrace, askDeps } from "@/lib/server/ask";
import { requireCourseAccess } from "@/lib/auth/access";
import { askLimiter } from "@/lib/server/limits";
import { handler, parseJson } from "@/lib/server/http";
import { MAX_QUESTION_CHARS, type ChatStreamEvent } from "@/lib/chat/protocol";

type Ctx = { params: Promise<{ courseId: string }> };

const body = z.object({
  conversationId: z.string().min(1).max(100).optional(),
  question: z.string().trim().min(1, "Ask a question.").max(MAX_QUESTION_CHARS, `Questions are limited to ${MAX_QUESTION_CHARS} characters.`),
});

/**
 * Asks one question in a conversation and streams the pipeline's events as NDJSON, one event a
 * line: stages, then each validated claim, the final answer with its status, and "saved".
 */
export const POST = handler(async (req, { params }: Ctx) => {
  const { db, ...handle } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, (await params).courseId);
  const { conversationId, question } = await parseJson(req, body);
  askLimiter.check(user.id);

  const existing = conversationId ? await getConversation(db, { courseId: course.id, conversationId }) : undefined;
  if (conversationId && (!existing || existing.userId !== user.id)) throw new AppError("not_found:conversation");
  const conversation = existing ?? (await createConversation(db, { courseId: course.id, userId: user.id, title: question }));
  const history = (await getConversationMessages(db, { conversationId: conversation.id })).filter((m) => m.role === "user").map((m) => m.content);

  const full = { db, ...handle };
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: ChatStreamEvent) => controller.enqueue(encoder.encode(JSON.stringify(event) + "\n"));
      send({ type: "conversation", conversationId: conversation.id, title: conversation.title });
      try {
        const run = askAndTrace(full, { courseId: course.id, question, history }, askDeps(full, course.id));
        let step = await run.next();
        while (!step.done) {
          send(step.value);
          step = await run.next();
        }
        const { messageId } = await saveExchange(db, { conversationId: conversation.id, question, answer: step.value.answer });
        send({ type: "saved", messageId });
      } catch (e) {
        console.error("[chat] unexpected error:", e);
        send({ type: "error", message: "Something went wrong while answering. Nothing was saved; try again." });
      } finally {
        controller.close();
      }
    },
  });
  return new Response(stream, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
});
