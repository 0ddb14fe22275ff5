import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { deleteConversation, getConversation, getConversationMessages, renameConversation } from "@/lib/db/queries/answers";
import { AppError } from "@/lib/errors";
import { requireCourse } from "@/lib/server/courses";
import { handler, parseJson } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; conversationId: string }> };

async function load(ctx: Ctx) {
  const { courseId, conversationId } = await ctx.params;
  const { db } = await getDb();
  const course = await requireCourse(db, courseId);
  const conversation = await getConversation(db, { courseId: course.id, conversationId });
  if (!conversation) throw new AppError("not_found:request", "That conversation does not exist.");
  return { db, conversation };
}

/** The conversation with every message; assistant messages carry the answer exactly as first streamed. */
export const GET = handler(async (_req, ctx: Ctx) => {
  const { db, conversation } = await load(ctx);
  const messages = await getConversationMessages(db, { conversationId: conversation.id });
  return Response.json({ conversation, messages });
});

const patchBody = z.object({ title: z.string().trim().min(1).max(120) }).strict();

export const PATCH = handler(async (req, ctx: Ctx) => {
  const { db, conversation } = await load(ctx);
  const { title } = await parseJson(req, patchBody);
  await renameConversation(db, { conversationId: conversation.id, title });
  return Response.json({ id: conversation.id, title });
});

export const DELETE = handler(async (_req, ctx: Ctx) => {
  const { db, conversation } = await load(ctx);
  await deleteConversation(db, { conversationId: conversation.id });
  return new Response(null, { status: 204 });
});
