import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { deleteConversation, getConversation, getConversationMessages, renameConversation } from "@/lib/db/queries/answers";
import { AppError } from "@/lib/errors";
import { requireCourseAccess } from "@/lib/auth/access";
import { handler, parseJson } from "@/lib/server/http";

type Ctx = { params: Promise<{ courseId: string; conversationId: string }> };

/** Someone else's conversation is a 404, exactly like one that does not exist. */
async function load(req: Request, ctx: Ctx) {
  const { courseId, conversationId } = await ctx.params;
  const { db } = await getDb();
  const { course, user } = await requireCourseAccess(db, req, courseId);
  const conversation = await getConversation(db, { courseId: course.id, conversationId });
  if (!conversation || conversation.userId !== user.id) throw new AppError("not_found:conversation");
  return { db, conversation };
}

/** The conversation with every message; assistant messages carry the answer exactly as first streamed. */
export const GET = handler(async (req, ctx: Ctx) => {
  const { db, conversation } = await load(req, ctx);
  const messages = await getConversationMessages(db, { conversationId: conversation.id });
  return Response.json({ conversation, messages });
});

const patchBody = z.object({ title: z.string().trim().min(1).max(120) }).strict();

export const PATCH = handler(async (req, ctx: Ctx) => {
  const { db, conversation } = await load(req, ctx);
  const { title } = await parseJson(req, patchBody);
  await renameConversation(db, { conversationId: conversation.id, title });
  return Response.json({ id: conversation.id, title });
});

export const DELETE = handler(async (req, ctx: Ctx) => {
  const { db, conversation } = await load(req, ctx);
  await deleteConversation(db, { conversationId: conversation.id });
  return new Response(null, { status: 204 });
});
