import "server-only";
import { and, asc, desc, eq } from "drizzle-orm";
import { newId } from "@/lib/ids";
import type { Answer, TraceRecord } from "@/lib/rag/pipeline";
import type { Db } from "../client";
import { citations, claims, conversations, messages, traces, type Conversation, type Message } from "../schema";

export async function saveTrace(db: Db, { trace }: { trace: TraceRecord }): Promise<void> {
  await db.insert(traces).values({ id: trace.id, courseId: trace.courseId, question: trace.question, status: trace.status ?? "unknown", data: trace });
}

export async function getTrace(db: Db, { courseId, traceId }: { courseId: string; traceId: string }) {
  return db.query.traces.findFirst({ where: and(eq(traces.id, traceId), eq(traces.courseId, courseId)) });
}

export async function createConversation(db: Db, { courseId, userId, title }: { courseId: string; userId: string | null; title: string }): Promise<Conversation> {
  const [row] = await db.insert(conversations).values({ id: newId("cnv"), courseId, userId, title: title.slice(0, 120) }).returning();
  return row;
}

export async function getConversationMessages(db: Db, { conversationId }: { conversationId: string }): Promise<Message[]> {
  return db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(asc(messages.createdAt));
}

/** Stores a question and its answer, with every claim and citation, in one transaction. */
export async function saveExchange(
  db: Db,
  { conversationId, question, answer }: { conversationId: string; question: string; answer: Answer },
): Promise<{ messageId: string }> {
  return db.transaction(async (tx) => {
    const now = Date.now();
    await tx.insert(messages).values({ id: newId("msg"), conversationId, role: "user", content: question, createdAt: new Date(now) });
    const messageId = newId("msg");
    await tx.insert(messages).values({
      id: messageId,
      conversationId,
      role: "assistant",
      content: answer.parts.flatMap((p) => p.claims.map((c) => c.text)).join("\n") || (answer.message ?? ""),
      status: answer.status,
      answer,
      traceId: answer.traceId,
      createdAt: new Date(now + 1),
    });
    for (const [partIndex, part] of answer.parts.entries()) {
      for (const [ordinal, claim] of part.claims.entries()) {
        const claimId = newId("clm");
        await tx.insert(claims).values({ id: claimId, messageId, partIndex, ordinal, text: claim.text });
        for (const c of claim.citations) {
          await tx.insert(citations).values({
            id: newId("cit"),
            claimId,
            label: c.label,
            chunkId: c.chunkId,
            revisionId: c.revisionId,
            pdfPage: c.pdfPage,
            pageLabel: c.pageLabel,
            quote: c.quote,
            charStart: c.charStart,
            charEnd: c.charEnd,
          });
        }
      }
    }
    return { messageId };
  });
}

export async function listConversations(db: Db, { courseId, userId }: { courseId: string; userId: string | null }): Promise<Conversation[]> {
  const scope = userId ? and(eq(conversations.courseId, courseId), eq(conversations.userId, userId)) : eq(conversations.courseId, courseId);
  return db.select().from(conversations).where(scope).orderBy(desc(conversations.createdAt));
}

export async function getConversation(db: Db, { courseId, conversationId }: { courseId: string; conversationId: string }): Promise<Conversation | undefined> {
  return db.query.conversations.findFirst({ where: and(eq(conversations.id, conversationId), eq(conversations.courseId, courseId)) });
}

export async function renameConversation(db: Db, { conversationId, title }: { conversationId: string; title: string }): Promise<void> {
  await db.update(conversations).set({ title }).where(eq(conversations.id, conversationId));
}

export async function deleteConversation(db: Db, { conversationId }: { conversationId: string }): Promise<void> {
  await db.delete(conversations).where(eq(conversations.id, conversationId));
}

export async function listTraces(db: Db, { courseId, limit }: { courseId: string; limit: number }) {
  return db
    .select({ id: traces.id, question: traces.question, status: traces.status, createdAt: traces.createdAt })
    .from(traces)
    .where(eq(traces.courseId, courseId))
    .orderBy(desc(traces.createdAt))
    .limit(limit);
}

/** Every trace's record of a course, newest first, for the evaluation summary. */
export async function listTraceRecords(db: Db, { courseId, limit }: { courseId: string; limit: number }): Promise<TraceRecord[]> {
  const rows = await db.select({ data: traces.data }).from(traces).where(eq(traces.courseId, courseId)).orderBy(desc(traces.createdAt)).limit(limit);
  return rows.map((r) => r.data as TraceRecord);
}
