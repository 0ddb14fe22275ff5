/**
 * The authorization matrix: every route, five kinds of caller, the exact outcome. Route handlers
 * are called as the server calls them, with a Request and its params, against a real libSQL file.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  // Before any import reads the environment: this file's own database (openDb creates the folder).
  process.env.DATABASE_URL = `file:/tmp/authz-${process.pid}-${Date.now()}/study.db`;
  process.env.INGEST_WORKER = "0";
});

import * as chat from "./courses/[courseId]/chat/route";
import * as conversation from "./courses/[courseId]/conversations/[conversationId]/route";
import * as conversations from "./courses/[courseId]/conversations/route";
import * as documents from "./courses/[courseId]/documents/route";
import * as deleteDoc from "./courses/[courseId]/documents/[documentId]/route";
import * as revisionFile from "./courses/[courseId]/revisions/[revisionId]/file/route";
import * as revision from "./courses/[courseId]/revisions/[revisionId]/route";
import * as trace from "./courses/[courseId]/traces/[traceId]/route";
import * as passages from "./courses/[courseId]/passages/route";
import * as playground from "./courses/[courseId]/playground/route";
import * as probe from "./courses/[courseId]/probe/route";
import * as questionsCsv from "./courses/[courseId]/questions/csv/route";
import * as goldenSetsRoute from "./courses/[courseId]/golden-sets/route";
import * as goldenSetRoute from "./courses/[courseId]/golden-sets/[setId]/route";
import * as goldenQuestionsRoute from "./courses/[courseId]/golden-sets/[setId]/questions/route";
import * as goldenQuestionRoute from "./courses/[courseId]/golden-sets/[setId]/questions/[questionId]/route";
import * as goldenExport from "./courses/[courseId]/golden-sets/[setId]/export/route";
import * as goldenImport from "./courses/[courseId]/golden-sets/[setId]/import/route";
import * as evalRunsRoute from "./courses/[courseId]/eval-runs/route";
import * as evalRunRoute from "./courses/[courseId]/eval-runs/[runId]/route";
import * as floorRoute from "./courses/[courseId]/floor/route";
import { addGoldenQuestions, createGoldenSet, getEvalRun, listGoldenQuestions } from "@/lib/db/queries/golden";
import * as coursesRoute from "./courses/route";
import * as decksRoute from "./courses/[courseId]/decks/route";
import * as deckRoute from "./courses/[courseId]/decks/[deckId]/route";
import * as deckExport from "./courses/[courseId]/decks/[deckId]/export/route";
import * as deckImport from "./courses/[courseId]/decks/import/route";
import * as studyRoute from "./courses/[courseId]/study/route";
import * as cardRoute from "./courses/[courseId]/cards/[cardId]/route";
import * as cardReview from "./courses/[courseId]/cards/[cardId]/review/route";
import { generateDeck } from "@/lib/study/decks";
import { getDeckCards } from "@/lib/db/queries/study";
import * as join_ from "./courses/join/route";
import * as signIn_ from "./auth/sign-in/route";
import * as signOut_ from "./auth/sign-out/route";
import * as signUp_ from "./auth/sign-up/route";
import { signUp } from "@/lib/auth/accounts";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { countTokens } from "@/lib/ai/tokenizer";
import { getDb } from "@/lib/db/client";
import { createCourse } from "@/lib/db/queries/courses";
import { addMembership } from "@/lib/db/queries/users";
import { submitUpload } from "@/lib/ingest/upload";
import { processQueuedJobs } from "@/lib/ingest/worker";
import { buildEncryptedPdf, buildPdf } from "@/lib/pdf/build";

type Actor = "anonymous" | "student" | "otherStudent" | "otherInstructor" | "instructor";
const actors: Actor[] = ["anonymous", "student", "otherStudent", "otherInstructor", "instructor"];
const cookies: Partial<Record<Actor, string>> = {};
let slug: string;
let otherSlug: string;
let revisionId: string;
let otherRevisionId: string;
let studentConversationId: string;
let traceId: string;
let publishedDeckId: string;
let privateDeckId: string;
let cardId: string;
let setId: string;
let courseId: string;

const BASE = "http://localhost:3100";
function request(actor: Actor, path: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  if (cookies[actor]) headers.set("cookie", `${SESSION_COOKIE}=${cookies[actor]}`);
  return new Request(`${BASE}${path}`, { ...init, headers });
}
const json = (body: unknown): RequestInit => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });

async function pdf(text: string): Promise<Blob> {
  const bytes = await buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text }] }] });
  return new Blob([new Uint8Array(bytes)], { type: "application/pdf" });
}

beforeAll(async () => {
  const { db, ...rest } = await getDb();
  const handle = { db, ...rest };
  const people = {
    instructor: await signUp(db, { email: "i@a.test", name: "I", password: "password-i" }),
    student: await signUp(db, { email: "s@a.test", name: "S", password: "password-s" }),
    otherInstructor: await signUp(db, { email: "i@b.test", name: "I2", password: "password-i2" }),
    otherStudent: await signUp(db, { email: "s@b.test", name: "S2", password: "password-s2" }),
  };
  for (const [actor, user] of Object.entries(people)) cookies[actor as Actor] = (await createSession(db, { userId: user.id })).token;
  const course = await createCourse(db, { title: "Course A", instructorId: people.instructor.id });
  const other = await createCourse(db, { title: "Course B", instructorId: people.otherInstructor.id });
  await addMembership(db, { userId: people.student.id, courseId: course.id, role: "student" });
  await addMembership(db, { userId: people.otherStudent.id, courseId: other.id, role: "student" });
  slug = course.slug;
  otherSlug = other.slug;
  courseId = course.id;
  setId = (await createGoldenSet(db, { courseId: course.id, name: "matrix" })).id;
  const bytes = new Uint8Array(await (await pdf("Assignment 2 is due on 18 September at 17:00.")).arrayBuffer());
  revisionId = (await submitUpload(db, { courseId: course.id, fileName: "a.pdf", bytes, maxBytes: 1 << 24 })).revision.id;
  const studyBytes = new Uint8Array(await (await pdf("A trellis is a wooden frame that supports climbing plants such as beans and peas.")).arrayBuffer());
  await submitUpload(db, { courseId: course.id, fileName: "garden.pdf", bytes: studyBytes, maxBytes: 1 << 24 });
  const otherBytes = new Uint8Array(await (await pdf("Lab 1 is due on 3 October.")).arrayBuffer());
  otherRevisionId = (await submitUpload(db, { courseId: other.id, fileName: "b.pdf", bytes: otherBytes, maxBytes: 1 << 24 })).revision.id;
  await processQueuedJobs(handle, { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 8 });

  publishedDeckId = (await generateDeck(db, { courseId: course.id, ownerId: people.instructor.id, title: "Published", scope: {}, wait: true })).id;
  privateDeckId = (await generateDeck(db, { courseId: course.id, ownerId: people.student.id, title: "Mine", scope: {}, wait: true })).id;
  cardId = (await getDeckCards(db, { deckId: publishedDeckId, userId: people.instructor.id }))[0].id;

  const res = await chat.POST(request("student", `/api/courses/${slug}/chat`, json({ question: "When is assignment 2 due?" })), params({ courseId: slug }));
  const events = (await res.text()).trim().split("\n").map((l) => JSON.parse(l));
  studentConversationId = events.find((e) => e.type === "conversation").conversationId;
  traceId = events.find((e) => e.type === "status").answer.traceId;
});

/** Runs one route for every actor and compares the status codes. */
async function matrix(call: (actor: Actor) => Promise<Response>, expected: Record<Actor, number>) {
  const got: Partial<Record<Actor, number>> = {};
  for (const actor of actors) got[actor] = (await call(actor)).status;
  expect(got).toEqual(expected);
}

describe("authorization matrix", () => {
  it("lists a course's documents to its members only", () =>
    matrix((a) => documents.GET(request(a, `/api/courses/${slug}/documents`), params({ courseId: slug })), {
      anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 200,
    }));

  it("lets only the course's instructor upload", () =>
    matrix(
      async (a) => {
        const form = new FormData();
        form.set("file", await pdf(`Upload by ${a}.`), `${a}.pdf`);
        return documents.POST(request(a, `/api/courses/${slug}/documents`, { method: "POST", body: form }), params({ courseId: slug }));
      },
      { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 201 },
    ));

  it("lets only the course's instructor delete a document, and a guessed id of another course's is 404", async () => {
    const { db } = await getDb();
    const victims: Record<string, string> = {};
    for (const a of actors) {
      const bytes = new Uint8Array(await (await pdf(`Delete target of ${a}.`)).arrayBuffer());
      const course = (await db.query.courses.findFirst({ where: (c, { eq }) => eq(c.slug, slug) }))!;
      victims[a] = (await submitUpload(db, { courseId: course.id, fileName: `victim-${a}.pdf`, bytes, maxBytes: 1 << 24 })).document.id;
    }
    await matrix((a) => deleteDoc.DELETE(request(a, "/x", { method: "DELETE" }), params({ courseId: slug, documentId: victims[a] })), {
      anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 204,
    });
    const viaOwnCourse = await deleteDoc.DELETE(request("otherInstructor", "/x", { method: "DELETE" }), params({ courseId: otherSlug, documentId: victims.student }));
    expect(viaOwnCourse.status).toBe(404);
  });

  it("lets only the course's instructor mark a correction", () =>
    matrix(
      (a) => revision.PATCH(request(a, `/api/courses/${slug}/revisions/${revisionId}`, { ...json({ isCorrection: true }), method: "PATCH" }), params({ courseId: slug, revisionId })),
      { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200 },
    ));

  it("serves a PDF to members only", () =>
    matrix((a) => revisionFile.GET(request(a, `/api/courses/${slug}/revisions/${revisionId}/file`), params({ courseId: slug, revisionId })), {
      anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 200,
    }));

  it("serves a PDF that no browser cache keeps past sign-out", async () => {
    const res = await revisionFile.GET(request("student", `/api/courses/${slug}/revisions/${revisionId}/file`), params({ courseId: slug, revisionId }));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });

  it("serves no file of a deleted document or of a failed or unfinished upload, to anyone", async () => {
    const { db, ...rest } = await getDb();
    const course = (await db.query.courses.findFirst({ where: (c, { eq }) => eq(c.slug, slug) }))!;
    const upload = async (name: string, bytes: Uint8Array) => (await submitUpload(db, { courseId: course.id, fileName: name, bytes, maxBytes: 1 << 24 })).revision.id;
    const doomed = await upload("doomed.pdf", new Uint8Array(await (await pdf("Quiz 3 is on Friday.")).arrayBuffer()));
    const locked = await upload("locked.pdf", await buildEncryptedPdf());
    const queued = await upload("queued.pdf", new Uint8Array(await (await pdf("Quiz 4 is on Monday.")).arrayBuffer()));
    const file = (a: Actor, id: string) => revisionFile.GET(request(a, `/api/courses/${slug}/revisions/${id}/file`), params({ courseId: slug, revisionId: id }));
    expect((await file("student", queued)).status).toBe(404); // not indexed yet: nothing cites it
    await processQueuedJobs({ db, ...rest }, { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 8 });
    expect((await db.query.revisions.findFirst({ where: (r, { eq }) => eq(r.id, locked) }))!.status).toBe("failed");
    expect((await file("student", doomed)).status).toBe(200);
    const documentId = (await db.query.revisions.findFirst({ where: (r, { eq }) => eq(r.id, doomed) }))!.documentId;
    expect((await deleteDoc.DELETE(request("instructor", "/x", { method: "DELETE" }), params({ courseId: slug, documentId }))).status).toBe(204);
    for (const a of ["student", "instructor"] as Actor[]) {
      for (const id of [doomed, locked]) {
        const res = await file(a, id);
        expect(res.status, `${a} ${id}`).toBe(404);
        expect(res.headers.get("content-type")).not.toContain("pdf");
      }
    }
  });

  it("answers a guessed revision id of another course with 404 and never its bytes", async () => {
    const res = await revisionFile.GET(request("otherInstructor", `/api/courses/${otherSlug}/revisions/${revisionId}/file`), params({ courseId: otherSlug, revisionId }));
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).not.toContain("pdf");
    const own = await revisionFile.GET(request("otherInstructor", `/api/courses/${otherSlug}/revisions/${otherRevisionId}/file`), params({ courseId: otherSlug, revisionId: otherRevisionId }));
    expect(own.status).toBe(200);
  });

  it("lets members ask", () =>
    matrix(
      (a) => chat.POST(request(a, `/api/courses/${slug}/chat`, json({ question: "When is assignment 2 due?" })), params({ courseId: slug })),
      { anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 200 },
    ));

  it("lists only the caller's own conversations", async () => {
    await matrix((a) => conversations.GET(request(a, `/api/courses/${slug}/conversations`), params({ courseId: slug })), {
      anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    const list = async (a: Actor) => (await (await conversations.GET(request(a, `/api/courses/${slug}/conversations`), params({ courseId: slug }))).json()).conversations;
    expect((await list("student")).map((c: { id: string }) => c.id)).toContain(studentConversationId);
    expect((await list("instructor")).map((c: { id: string }) => c.id)).not.toContain(studentConversationId);
  });

  it("shows a conversation to its owner only — the instructor of the course too gets 404", () =>
    matrix((a) => conversation.GET(request(a, `/api/courses/${slug}/conversations/${studentConversationId}`), params({ courseId: slug, conversationId: studentConversationId })), {
      anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 404,
    }));

  it("lets nobody but the owner rename or delete a conversation, or continue it", async () => {
    const p = params({ courseId: slug, conversationId: studentConversationId });
    for (const a of ["otherStudent", "otherInstructor", "instructor"] as Actor[]) {
      expect((await conversation.PATCH(request(a, "/x", { ...json({ title: "hijack" }), method: "PATCH" }), p)).status).toBe(404);
      expect((await conversation.DELETE(request(a, "/x", { method: "DELETE" }), p)).status).toBe(404);
    }
    const res = await chat.POST(request("instructor", `/api/courses/${slug}/chat`, json({ conversationId: studentConversationId, question: "and?" })), params({ courseId: slug }));
    expect(res.status).toBe(404);
    expect((await conversation.PATCH(request("student", "/x", { ...json({ title: "Deadlines" }), method: "PATCH" }), p)).status).toBe(200);
  });

  it("shows traces to the course's instructor only", () =>
    matrix((a) => trace.GET(request(a, `/api/courses/${slug}/traces/${traceId}`), params({ courseId: slug, traceId })), {
      anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200,
    }));

  it("shows the course's student questions as CSV to its instructor only", async () => {
    await matrix((a) => questionsCsv.GET(request(a, `/api/courses/${slug}/questions/csv`), params({ courseId: slug })), {
      anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    const csv = await questionsCsv.GET(request("instructor", `/api/courses/${slug}/questions/csv`), params({ courseId: slug }));
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const text = await csv.text();
    expect(text).toContain('"When is assignment 2 due?"');
    expect(text).not.toMatch(/s@a\.test|"S"/);
  });

  it("lets only the course's instructor search its passages, run the playground and the probe", async () => {
    await matrix((a) => passages.GET(request(a, `/api/courses/${slug}/passages?q=assignment`), params({ courseId: slug })), {
      anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    const found = await (await passages.GET(request("instructor", `/api/courses/${slug}/passages?q=assignment`), params({ courseId: slug }))).json();
    const knobs = { k: 2, minScore: 0.3, maxPassages: 6, contextWindow: 8192 };
    await matrix((a) => playground.POST(request(a, `/api/courses/${slug}/playground`, json({ question: "When is assignment 2 due?", knobs })), params({ courseId: slug })), {
      anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    const oracleChunkIds = [found.passages[0].chunkId];
    await matrix((a) => probe.POST(request(a, `/api/courses/${slug}/probe`, json({ question: "When is assignment 2 due?", oracleChunkIds })), params({ courseId: slug })), {
      anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
  });

  it("lets only the course's instructor list, create, read, export, import and delete golden sets and their questions", async () => {
    const set = () => params({ courseId: slug, setId });
    await matrix((a) => goldenSetsRoute.GET(request(a, "/x"), params({ courseId: slug })), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200 });
    await matrix((a) => goldenSetsRoute.POST(request(a, "/x", json({ name: `set of ${a}` })), params({ courseId: slug })), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 201 });
    await matrix((a) => goldenSetRoute.GET(request(a, "/x"), set()), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200 });
    const found = await (await passages.GET(request("instructor", `/api/courses/${slug}/passages?q=assignment`), params({ courseId: slug }))).json();
    const question = (a: Actor) => ({ question: `When is assignment 2 due, asks ${a}?`, kind: "answerable", expect: "answered", answer: "18 September", chunkIds: [found.passages[0].chunkId] });
    await matrix((a) => goldenQuestionsRoute.POST(request(a, "/x", json(question(a))), set()), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 201 });
    const jsonl = JSON.stringify({ id: "imp-1", course: "a", question: "Is there a lab on Sundays?", expect: "insufficient_evidence", kind: "unanswerable", split: "test" });
    await matrix(
      (a) => goldenImport.POST(request(a, "/x", { method: "POST", headers: { "content-type": "application/x-ndjson" }, body: jsonl.replace("imp-1", `imp-${a}`) }), set()),
      { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 201 },
    );
    await matrix((a) => goldenExport.GET(request(a, "/x"), set()), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200 });
    const exported = await (await goldenExport.GET(request("instructor", "/x"), set())).text();
    expect(exported.trim().split("\n").map((l) => JSON.parse(l).id)).toEqual(["q-1", "imp-instructor"]);

    const { db } = await getDb();
    const [first] = await listGoldenQuestions(db, { setId, course: slug });
    const victims: Record<string, string> = {};
    for (const a of actors) {
      await addGoldenQuestions(db, { setId, questions: [{ ...first.golden, id: `victim-${a}` }] });
      victims[a] = (await listGoldenQuestions(db, { setId, course: slug })).find((q) => q.golden.id === `victim-${a}`)!.rowId;
    }
    await matrix((a) => goldenQuestionRoute.DELETE(request(a, "/x", { method: "DELETE" }), params({ courseId: slug, setId, questionId: victims[a] })), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 204 });
    const doomed: Record<string, string> = {};
    for (const a of actors) doomed[a] = (await createGoldenSet(db, { courseId, name: `doomed ${a}` })).id;
    await matrix((a) => goldenSetRoute.DELETE(request(a, "/x", { method: "DELETE" }), params({ courseId: slug, setId: doomed[a] })), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 204 });
    // Another course's instructor, through their own course's URL, still finds no set.
    expect((await goldenSetRoute.GET(request("otherInstructor", "/x"), params({ courseId: otherSlug, setId }))).status).toBe(404);
  });

  it("lets only the course's instructor start, list and open evaluation runs and set the answer floor", async () => {
    await matrix((a) => evalRunsRoute.POST(request(a, "/x", json({ kind: "single", setId, config: { k: 4 } })), params({ courseId: slug })), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 202 });
    await matrix((a) => evalRunsRoute.GET(request(a, "/x"), params({ courseId: slug })), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200 });
    const { runs } = await (await evalRunsRoute.GET(request("instructor", "/x"), params({ courseId: slug }))).json();
    const runId = runs[0].id;
    await matrix((a) => evalRunRoute.GET(request(a, "/x"), params({ courseId: slug, runId })), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200 });
    const { db } = await getDb();
    await vi.waitFor(async () => expect((await getEvalRun(db, { courseId, runId }))?.status).toBe("done"), { timeout: 30_000 });
    await matrix((a) => floorRoute.POST(request(a, "/x", json({ minScore: 0.3, confirm: true })), params({ courseId: slug })), { anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200 });
    const unconfirmed = await floorRoute.POST(request("instructor", "/x", json({ minScore: 0.5 })), params({ courseId: slug }));
    expect(unconfirmed.status).toBe(400);
  });

  it("never sends another course's passage as a probe's pick", async () => {
    const { db } = await getDb();
    const other = (await db.query.courses.findFirst({ where: (c, { eq }) => eq(c.slug, otherSlug) }))!;
    const foreign = (await db.query.chunks.findFirst({ where: (c, { eq }) => eq(c.courseId, other.id) }))!;
    const res = await probe.POST(request("instructor", `/api/courses/${slug}/probe`, json({ question: "When is lab 1 due?", oracleChunkIds: [foreign.id] })), params({ courseId: slug }));
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/no longer in the course's current notes/);
  });

  it("lets any signed-in user create a course (as its instructor) and join one by code", async () => {
    await matrix((a) => coursesRoute.POST(request(a, "/api/courses", json({ title: `Course of ${a}` })), {}), {
      anonymous: 401, student: 201, otherStudent: 201, otherInstructor: 201, instructor: 201,
    });
    const created = await (await coursesRoute.POST(request("otherStudent", "/api/courses", json({ title: "Reading group" })), {})).json();
    expect((await join_.POST(request("anonymous", "/api/courses/join", json({ code: created.joinCode })), {})).status).toBe(401);
    const joined = await join_.POST(request("student", "/api/courses/join", json({ code: created.joinCode.toLowerCase() })), {});
    expect(await joined.json()).toMatchObject({ slug: created.slug, role: "student" });
    expect((await join_.POST(request("student", "/api/courses/join", json({ code: "NOPE1234" })), {})).status).toBe(404);
  });

  it("lets only the course's members list and generate decks", async () => {
    await matrix((a) => decksRoute.GET(request(a, `/api/courses/${slug}/decks`), params({ courseId: slug })), {
      anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    await matrix((a) => decksRoute.POST(request(a, `/api/courses/${slug}/decks`, json({ title: `Deck of ${a}` })), params({ courseId: slug })), {
      anonymous: 401, student: 201, otherStudent: 404, otherInstructor: 404, instructor: 201,
    });
  });

  it("lets only the course's instructor publish, and shows a student's private deck to that student alone", async () => {
    await matrix((a) => deckRoute.PATCH(request(a, "/x", { ...json({ published: true }), method: "PATCH" }), params({ courseId: slug, deckId: publishedDeckId })), {
      anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    await matrix((a) => deckRoute.GET(request(a, "/x"), params({ courseId: slug, deckId: publishedDeckId })), {
      anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    await matrix((a) => deckRoute.GET(request(a, "/x"), params({ courseId: slug, deckId: privateDeckId })), {
      anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 404,
    });
    // Through the other course's own URL, a guessed deck id is still not found.
    expect((await deckRoute.GET(request("otherInstructor", "/x"), params({ courseId: otherSlug, deckId: publishedDeckId }))).status).toBe(404);
    expect((await deckRoute.DELETE(request("student", "/x", { method: "DELETE" }), params({ courseId: slug, deckId: publishedDeckId }))).status).toBe(403);
  });

  it("exports and imports decks for members only", async () => {
    await matrix((a) => deckExport.GET(request(a, "/x?format=json"), params({ courseId: slug, deckId: publishedDeckId })), {
      anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    const exported = await (await deckExport.GET(request("student", "/x?format=json"), params({ courseId: slug, deckId: publishedDeckId }))).json();
    await matrix((a) => deckImport.POST(request(a, `/api/courses/${slug}/decks/import`, json(exported)), params({ courseId: slug })), {
      anonymous: 401, student: 201, otherStudent: 404, otherInstructor: 404, instructor: 201,
    });
    // Another course's instructor importing into their own course: the citations are not that course's notes.
    expect((await deckImport.POST(request("otherInstructor", "/x", json(exported)), params({ courseId: otherSlug }))).status).toBe(400);
  });

  it("serves the due queue and takes grades from members only; only the instructor resolves a published deck's card", async () => {
    await matrix((a) => studyRoute.GET(request(a, `/api/courses/${slug}/study`), params({ courseId: slug })), {
      anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    await matrix((a) => cardReview.POST(request(a, "/x", json({ grade: "good" })), params({ courseId: slug, cardId })), {
      anonymous: 401, student: 200, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    await matrix((a) => cardRoute.PATCH(request(a, "/x", { ...json({ action: "keep" }), method: "PATCH" }), params({ courseId: slug, cardId })), {
      anonymous: 401, student: 403, otherStudent: 404, otherInstructor: 404, instructor: 200,
    });
    const bad = await cardReview.POST(request("student", "/x", json({ grade: "perfect" })), params({ courseId: slug, cardId }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/again, hard, good or easy/);
  });

  it("rejects a state-changing request from another site", async () => {
    const res = await chat.POST(
      request("student", `/api/courses/${slug}/chat`, { ...json({ question: "x" }), headers: { "content-type": "application/json", origin: "https://evil.example" } }),
      params({ courseId: slug }),
    );
    expect(res.status).toBe(403);
    // X-Forwarded-Host is the client's own word unless TRUST_PROXY says a proxy set it.
    const forged = await chat.POST(
      request("student", `/api/courses/${slug}/chat`, {
        ...json({ question: "x" }),
        headers: { "content-type": "application/json", host: "localhost:3100", origin: "https://evil.example", "x-forwarded-host": "evil.example" },
      }),
      params({ courseId: slug }),
    );
    expect(forged.status).toBe(403);
  });

  it("answers malformed bodies with a clear 400", async () => {
    const bad = await chat.POST(request("student", `/api/courses/${slug}/chat`, { method: "POST", body: "{not json" }), params({ courseId: slug }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/not valid JSON/);
    const long = await chat.POST(request("student", `/api/courses/${slug}/chat`, json({ question: "x".repeat(2001) })), params({ courseId: slug }));
    expect(long.status).toBe(400);
    expect((await long.json()).message).toMatch(/2000 characters/);
  });

  it("answers hostile Origin headers with 403 and malformed session cookies as signed out, on every route, never a 500", async () => {
    const { db } = await getDb();
    const documentId = (await db.query.revisions.findFirst({ where: (r, { eq }) => eq(r.id, revisionId) }))!.documentId;
    type Call = (req: Request) => Promise<Response>;
    const c = { courseId: slug };
    const routes: [string, string, Call][] = [
      ["POST", "/api/auth/sign-in", (r) => signIn_.POST(r, {})],
      ["POST", "/api/auth/sign-up", (r) => signUp_.POST(r, {})],
      ["POST", "/api/auth/sign-out", (r) => signOut_.POST(r, {})],
      ["GET", "/api/courses", (r) => coursesRoute.GET(r, {})],
      ["POST", "/api/courses", (r) => coursesRoute.POST(r, {})],
      ["POST", "/api/courses/join", (r) => join_.POST(r, {})],
      ["POST", "/chat", (r) => chat.POST(r, params(c))],
      ["GET", "/conversations", (r) => conversations.GET(r, params(c))],
      ["GET", "/conversation", (r) => conversation.GET(r, params({ ...c, conversationId: studentConversationId }))],
      ["PATCH", "/conversation", (r) => conversation.PATCH(r, params({ ...c, conversationId: studentConversationId }))],
      ["DELETE", "/conversation", (r) => conversation.DELETE(r, params({ ...c, conversationId: studentConversationId }))],
      ["GET", "/documents", (r) => documents.GET(r, params(c))],
      ["POST", "/documents", (r) => documents.POST(r, params(c))],
      ["DELETE", "/document", (r) => deleteDoc.DELETE(r, params({ ...c, documentId }))],
      ["GET", "/file", (r) => revisionFile.GET(r, params({ ...c, revisionId }))],
      ["PATCH", "/revision", (r) => revision.PATCH(r, params({ ...c, revisionId }))],
      ["GET", "/trace", (r) => trace.GET(r, params({ ...c, traceId }))],
      ["GET", "/passages?q=assignment", (r) => passages.GET(r, params(c))],
      ["POST", "/playground", (r) => playground.POST(r, params(c))],
      ["POST", "/probe", (r) => probe.POST(r, params(c))],
      ["GET", "/questions/csv", (r) => questionsCsv.GET(r, params(c))],
      ["GET", "/golden-sets", (r) => goldenSetsRoute.GET(r, params(c))],
      ["POST", "/golden-sets", (r) => goldenSetsRoute.POST(r, params(c))],
      ["GET", "/golden-set", (r) => goldenSetRoute.GET(r, params({ ...c, setId }))],
      ["DELETE", "/golden-set", (r) => goldenSetRoute.DELETE(r, params({ ...c, setId }))],
      ["POST", "/golden-set/questions", (r) => goldenQuestionsRoute.POST(r, params({ ...c, setId }))],
      ["DELETE", "/golden-set/question", (r) => goldenQuestionRoute.DELETE(r, params({ ...c, setId, questionId: "gq_none" }))],
      ["GET", "/golden-set/export", (r) => goldenExport.GET(r, params({ ...c, setId }))],
      ["POST", "/golden-set/import", (r) => goldenImport.POST(r, params({ ...c, setId }))],
      ["GET", "/eval-runs", (r) => evalRunsRoute.GET(r, params(c))],
      ["POST", "/eval-runs", (r) => evalRunsRoute.POST(r, params(c))],
      ["GET", "/eval-run", (r) => evalRunRoute.GET(r, params({ ...c, runId: "evr_none" }))],
      ["POST", "/floor", (r) => floorRoute.POST(r, params(c))],
    ];
    const badOrigins = ["null", "not a url", "http://[::1", "https://", "file:///etc/passwd", "http://localhost:3100.evil.example", "%zz", "http://ex ample.test"];
    const badCookies = [`${SESSION_COOKIE}=%E0%A4%A`, `${SESSION_COOKIE}=%`, `${SESSION_COOKIE}=%ZZ; other=1`, `${SESSION_COOKIE}`, `${SESSION_COOKIE}=${"A".repeat(5000)}`, "=;;;=", `${SESSION_COOKIE}=\u00ff%C3`];
    // Bodies that are valid JSON but not the route's shape: a 500 can only come from the headers.
    const make = (method: string, path: string, headers: Record<string, string>) =>
      new Request(`${BASE}${path}`, { method, headers: { "content-type": "application/json", ...headers }, ...(method === "GET" ? {} : { body: "{}" }) });
    const got: string[] = [];
    for (const [method, path, call] of routes) {
      const signedOut = (await call(make(method, path, {}))).status;
      for (const cookie of badCookies) {
        const status = (await call(make(method, path, { cookie }))).status;
        if (status !== signedOut) got.push(`${method} ${path} cookie=${cookie.slice(0, 30)} → ${status} (signed out: ${signedOut})`);
      }
      if (method === "GET") continue;
      for (const origin of badOrigins) {
        const status = (await call(make(method, path, { origin, cookie: `${SESSION_COOKIE}=${cookies.student}` }))).status;
        if (status !== 403) got.push(`${method} ${path} origin=${origin} → ${status}`);
      }
    }
    expect(got).toEqual([]);
  });
});
