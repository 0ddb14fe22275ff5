import "server-only";
import { and, asc, desc, eq, sql } from "drizzle-orm";
import { newId } from "@/lib/ids";
import { answerText, type Answer, type TraceRecord } from "@/lib/rag/pipeline";
import type { Db } from "../client";
import { citations, claims, conversations, messages, traces, type Conversation, type Message } from "../schema";

const traceInsert = (db: Db, trace: TraceRecord) =>
  db.insert(traces).values({ id: trace.id, courseId: trace.courseId, question: trace.question, status: trace.status ?? "unknown", data: trace });

/** Stores a trace on its own: an answer asked outside a conversation (CLI), or one deliberately kept after it was cancelled. */
export async function saveTrace(db: Db, { trace }: { trace: TraceRecord }): Promise<void> {
  await traceInsert(db, trace);
}

export async function getTrace(db: Db, { courseId, traceId }: { courseId: string; traceId: string }) {
  return db.query.traces.findFirst({ where: and(eq(traces.id, traceId), eq(traces.courseId, courseId)) });
}

export async function getConversationMessages(db: Db, { conversationId }: { conversationId: string }): Promise<Message[]> {
  return db.select().from(messages).where(eq(messages.conversationId, conversationId)).orderBy(asc(messages.createdAt));
}

/** A conversation to answer in: one that exists, or a new one whose row is written with its first answer. */
export type AnswerConversation = { id: string; isNew: false } | { id: string; isNew: true; courseId: string; userId: string | null; title: string };

/**
 * Stores one answered question in one batch (one transaction, one round trip): the conversation
 * when new, the trace, the question and the answer, its claims and their citations. Nothing is
 * written before the answer is validated, so a failed or cancelled answer leaves no row.
 */
export async function saveAnswer(
  db: Db,
  { conversation, question, answer, trace }: { conversation: AnswerConversation; question: string; answer: Answer; trace: TraceRecord },
): Promise<{ messageId: string }> {
  const now = Date.now();
  const messageId = newId("msg");
  const claimRows = answer.parts.flatMap((part, partIndex) => part.claims.map((claim, ordinal) => ({ id: newId("clm"), messageId, partIndex, ordinal, text: claim.text, claim })));
  const citationRows = claimRows.flatMap(({ id: claimId, claim }) =>
    claim.citations.map((c) => ({
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
    })),
  );
  await db.batch([
    traceInsert(db, trace),
    ...(conversation.isNew
      ? [db.insert(conversations).values({ id: conversation.id, courseId: conversation.courseId, userId: conversation.userId, title: conversation.title.slice(0, 120) })]
      : []),
    db.insert(messages).values([
      { id: newId("msg"), conversationId: conversation.id, role: "user", content: question, createdAt: new Date(now) },
      {
        id: messageId,
        conversationId: conversation.id,
        role: "assistant",
        content: answerText(answer) || (answer.message ?? ""),
        status: answer.status,
        answer,
        traceId: trace.id,
        createdAt: new Date(now + 1),
      },
    ]),
    ...(claimRows.length ? [db.insert(claims).values(claimRows.map(({ claim: _claim, ...row }) => row))] : []),
    ...(citationRows.length ? [db.insert(citations).values(citationRows)] : []),
  ]);
  return { messageId };
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
    .select({
      id: traces.id,
      question: traces.question,
      status: traces.status,
      createdAt: traces.createdAt,
      origin: sql<TraceRecord["origin"] | null>`json_extract(${traces.data}, '$.origin')`,
    })
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
