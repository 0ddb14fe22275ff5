import "server-only";
import { and, desc, eq, sql } from "drizzle-orm";
import type { AnswerStatus, PartGap } from "@/lib/rag/pipeline";
import type { Db } from "../client";
import { conversations, memberships, messages, traces } from "../schema";

/** A question a student asked, with what it received; who asked it is deliberately not selected. */
export interface StudentQuestion {
  traceId: string;
  question: string;
  /** The question as it was searched (a follow-up resolved against its conversation). */
  standalone: string;
  status: AnswerStatus;
  /** Each requested part and its evidence state (a partial answer's "missing" parts are gaps in the notes). */
  parts: Array<{ ask: string; state: string; gap?: PartGap }>;
  askedAt: Date;
}

/**
 * The course's student questions, newest first: answers stored in conversations of members who
 * are students of the course. Instructors' own questions and workbench runs (traces without a
 * message) are not students' questions.
 */
export async function listStudentQuestions(db: Db, { courseId, limit }: { courseId: string; limit: number }): Promise<StudentQuestion[]> {
  const rows = await db
    .select({
      traceId: traces.id,
      question: traces.question,
      standalone: sql<string | null>`json_extract(${traces.data}, '$.standaloneQuery')`,
      status: messages.status,
      parts: sql<string | null>`json_extract(${traces.data}, '$.partStates')`,
      askedAt: messages.createdAt,
    })
    .from(messages)
    .innerJoin(conversations, eq(conversations.id, messages.conversationId))
    .innerJoin(memberships, and(eq(memberships.userId, conversations.userId), eq(memberships.courseId, conversations.courseId), eq(memberships.role, "student")))
    .innerJoin(traces, eq(traces.id, messages.traceId))
    .where(and(eq(conversations.courseId, courseId), eq(messages.role, "assistant")))
    .orderBy(desc(messages.createdAt))
    .limit(limit);
  return rows.map((r) => ({
    traceId: r.traceId,
    question: r.question,
    standalone: r.standalone ?? r.question,
    status: r.status as AnswerStatus,
    parts: r.parts ? (JSON.parse(r.parts) as StudentQuestion["parts"]) : [],
    askedAt: r.askedAt,
  }));
}
