import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/lib/ids";
import type { Answer, TraceRecord } from "@/lib/rag/pipeline";
import { openTempDb } from "../temp";
import { citations, claims, conversations, messages, traces } from "../schema";
import { ensureCourse } from "./courses";
import { saveAnswer } from "./answers";

let db: Awaited<ReturnType<typeof openTempDb>>;
let courseId: string;
beforeAll(async () => {
  db = await openTempDb();
  courseId = (await ensureCourse(db.db, { slug: "pottery" })).id;
});
afterAll(() => db.dispose());

const trace = (id: string) => ({ id, courseId, question: "When is the kiln fired?", status: "answered" }) as unknown as TraceRecord;
const answer = (traceId: string, quote: string | null): Answer =>
  ({
    status: "answered",
    generator: "extractive",
    traceId,
    parts: [
      {
        ask: "When is the kiln fired",
        state: "supported",
        claims: [{ text: "The kiln is fired on Thursdays.", citations: [{ label: "S1", chunkId: "chk_1", revisionId: "rev_1", pdfPage: 2, pageLabel: "2", quote, charStart: 0, charEnd: 31 }] }],
      },
    ],
  }) as unknown as Answer;

const rows = async () => ({
  conversations: await db.db.$count(conversations),
  traces: await db.db.$count(traces),
  messages: await db.db.$count(messages),
  claims: await db.db.$count(claims),
  citations: await db.db.$count(citations),
});

describe("saveAnswer", () => {
  it("writes the new conversation, trace, both messages, claims and citations together", async () => {
    const id = newId("trc");
    await saveAnswer(db.db, { conversation: { id: newId("cnv"), isNew: true, courseId, userId: null, title: "Kiln" }, question: "When is the kiln fired?", answer: answer(id, "The kiln is fired on Thursdays."), trace: trace(id) });
    expect(await rows()).toEqual({ conversations: 1, traces: 1, messages: 2, claims: 1, citations: 1 });
  });

  it("leaves nothing behind when its last statement fails", async () => {
    const before = await rows();
    const id = newId("trc");
    // A citation without its quote violates NOT NULL: the batch is one transaction, so the conversation, trace and messages go too.
    const failed = await saveAnswer(db.db, { conversation: { id: newId("cnv"), isNew: true, courseId, userId: null, title: "Kiln" }, question: "When is the kiln fired?", answer: answer(id, null), trace: trace(id) }).catch((e) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(await rows()).toEqual(before);
  });

  it("refuses a message whose trace does not exist (messages.trace_id is a foreign key)", async () => {
    const [conversation] = await db.db.insert(conversations).values({ id: newId("cnv"), courseId, userId: null, title: "Orphan" }).returning();
    const orphan = db.db.insert(messages).values({ id: newId("msg"), conversationId: conversation.id, role: "assistant", content: "x", traceId: "trc_missing" });
    await expect(orphan).rejects.toThrow();
  });
});
