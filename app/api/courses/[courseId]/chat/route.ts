import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { getConversation, getConversationMessages, saveAnswer, saveTrace, type AnswerConversation } from "@/lib/db/queries/answers";
import { AppError } from "@/lib/errors";
import { newId } from "@/lib/ids";
import { answerQuestion, type TraceRecord } from "@/lib/rag/pipeline";
import { answerAdmission } from "@/lib/server/admission";
import { askDeps } from "@/lib/server/ask";
import { courseAskOverrides } from "@/lib/server/evaluation";
import { requireCourseAccess } from "@/lib/auth/access";
import { askLimiter } from "@/lib/server/limits";
import { handler, parseJson } from "@/lib/server/http";
import { admitWork } from "@/lib/server/lifecycle";
import { log } from "@/lib/server/log";
import { requestIdOf } from "@/lib/server/request-log";
import { env } from "@/lib/env";
import { MAX_QUESTION_CHARS, type ChatStreamEvent } from "@/lib/chat/protocol";

type Ctx = { params: Promise<{ courseId: string }> };

const body = z.object({
  conversationId: z.string().min(1).max(100).optional(),
  question: z.string().trim().min(1, "Ask a question.").max(MAX_QUESTION_CHARS, `Questions are limited to ${MAX_QUESTION_CHARS} characters.`),
});

/**
 * Asks one question in a conversation and streams the pipeline's events as NDJSON, one event a
 * line: stages, then each validated claim, the final answer with its status, and "saved". The
 * request waits its turn in the admission queue before anything else (503 with Retry-After when
 * the queue is full), and the answer is written in one batch only once it is complete: a new
 * conversation's row comes with its first answer, so a failed or cancelled answer leaves nothing
 * half-made. A client that goes away
 * cancels its answer; its trace is kept, saying "cancelled". While the server shuts down a new
 * question gets 503 with Retry-After, and an answer still running at the shutdown's bound is
 * cancelled the same way, the student told so.
 */
export const POST = handler(async (req, ctx: Ctx) => {
  const gone = new AbortController();
  const stop = { byShutdown: false };
  const finish = admitWork("answer", () => {
    stop.byShutdown = true;
    gone.abort();
  });
  let release: (() => void) | undefined;
  try {
    // Admitted before any database work: under a rush the session, rate-limit and conversation
    // reads would otherwise pile up on the one connection ahead of the queue that bounds them.
    release = await answerAdmission.acquire(req.signal);
    const admitted = release;
    return await answer(req, ctx, gone, stop, () => (admitted(), finish()));
  } catch (e) {
    release?.();
    finish();
    throw e;
  }
});

async function answer(req: Request, { params }: Ctx, gone: AbortController, stop: { byShutdown: boolean }, done: () => void): Promise<Response> {
  const startedAt = performance.now();
  const { db, ...handle } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, (await params).courseId);
  const { conversationId, question } = await parseJson(req, body);
  await askLimiter.check(db, user.id);

  const existing = conversationId ? await getConversation(db, { courseId: course.id, conversationId }) : undefined;
  if (conversationId && (!existing || existing.userId !== user.id)) throw new AppError("not_found:conversation");
  const conversation: AnswerConversation = existing
    ? { id: existing.id, isNew: false }
    : { id: newId("cnv"), isNew: true, courseId: course.id, userId: user.id, title: question };
  const earlier = existing ? await getConversationMessages(db, { conversationId: existing.id }) : [];
  const history = earlier.filter((m) => m.role === "user").map((m) => m.content);
  // The last answer, when it stated something: "her office" may be the office of the person it named.
  const last = earlier.at(-1);
  const previousAnswer = last?.role === "assistant" && (last.status === "answered" || last.status === "partial") ? last.content : undefined;

  const onRequestAbort = () => gone.abort();
  req.signal.addEventListener("abort", onRequestAbort, { once: true });

  const full = { db, ...handle };
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      // A student who went away gets nothing more; one whose answer the shutdown cancelled is told.
      const send = (event: ChatStreamEvent) => {
        if (!gone.signal.aborted || stop.byShutdown) controller.enqueue(encoder.encode(JSON.stringify(event) + "\n"));
      };
      const logAnswer = (trace: TraceRecord, saved: boolean) =>
        log("info", "answer", {
          requestId: requestIdOf(req),
          traceId: trace.id,
          courseId: course.id,
          status: trace.status,
          generator: trace.settings.generator,
          saved,
          durationMs: Math.round(performance.now() - startedAt),
          timings: trace.timings,
          ...(env.LOG_QUESTIONS === "true" ? { question } : {}),
        });
      if (!conversation.isNew) send({ type: "conversation", conversationId: conversation.id, title: existing!.title });
      try {
        const run = answerQuestion({ courseId: course.id, question, history, previousAnswer, signal: gone.signal }, askDeps(full, course.id, await courseAskOverrides(db, course.id)));
        let step = await run.next();
        while (!step.done) {
          send(step.value);
          step = await run.next();
        }
        const { answer, trace } = step.value;
        if (answer.status === "cancelled") {
          await saveTrace(db, { trace });
          logAnswer(trace, false);
          if (stop.byShutdown) send({ type: "error", message: "The server is restarting, so this answer was stopped before it was finished. Nothing was saved; ask again in a moment." });
          return;
        }
        const { messageId } = await saveAnswer(db, { conversation, question, answer, trace });
        logAnswer(trace, true);
        if (conversation.isNew) send({ type: "conversation", conversationId: conversation.id, title: question.slice(0, 120) });
        send({ type: "saved", messageId });
      } catch (e) {
        log("error", "answer_failed", { requestId: requestIdOf(req), courseId: course.id, error: e });
        send({ type: "error", message: "Something went wrong while answering. Nothing was saved; try again." });
      } finally {
        done();
        req.signal.removeEventListener("abort", onRequestAbort);
        try {
          controller.close();
        } catch {
          // Already cancelled by the reader: nothing to close.
        }
      }
    },
    cancel() {
      gone.abort();
    },
  });
  return new Response(stream, { headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store" } });
}
