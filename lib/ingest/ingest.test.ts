import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/ai/tokenizer";
import { createEmbedder } from "@/lib/ai/providers";
import { startScriptedOpenAI } from "@/lib/ai/openai-server.mock";
import { ensureCourse } from "@/lib/db/queries/courses";
import { deleteDocument, getDocumentsWithRevisions } from "@/lib/db/queries/documents";
import { searchDense, searchLexical } from "@/lib/db/queries/search";
import { chunks, documents, ingestionJobs, pages } from "@/lib/db/schema";
import { openTempDb } from "@/lib/db/temp";
import { isAppError } from "@/lib/errors";
import { buildEncryptedPdf, buildImageOnlyPdf, buildPdf, buildZeroPagePdf, corrupt, truncate } from "@/lib/pdf/build";
import { ingestFiles } from "./ingest-files";
import { submitUpload } from "./upload";
import { processQueuedJobs, type WorkerDeps } from "./worker";

const MB = 1024 * 1024;
const deps: WorkerDeps = { countTokens, chunkSettings: { targetTokens: 160, overlapTokens: 32 }, embedder: null, embedBatchSize: 16 };

const notes = (facts: string[]) =>
  buildPdf({ pages: facts.map((fact) => ({ blocks: [{ kind: "heading", text: "Course notes" }, { kind: "paragraph", text: fact }] })) });

let db: Awaited<ReturnType<typeof openTempDb>>;
let courseId: string;
beforeEach(async () => {
  db = await openTempDb();
  courseId = (await ensureCourse(db.db, { slug: "cs101" })).id;
});
afterEach(() => db.dispose());

const upload = (fileName: string, bytes: Uint8Array, extra: { documentId?: string; title?: string; isCorrection?: boolean } = {}) =>
  submitUpload(db.db, { courseId, fileName, bytes, maxBytes: 50 * MB, ...extra });

/** The product's lexical search, for the words of a phrase. */
const search = async (phrase: string) => (await searchLexical(db.client, { courseId, terms: phrase.split(/\s+/), limit: 5 })).hits;

describe("ingestion", () => {
  it("indexes a PDF page by page and FTS finds a chunk by a phrase from it, on its page", async () => {
    await upload("week1.pdf", await notes(["Normalisation removes redundancy from relations.", "Deadlock detection uses a waits-for graph."]));
    expect(await processQueuedJobs(db, deps)).toBe(1);
    const hits = await search("waits-for graph");
    expect(hits[0].passage.text).toContain("waits-for graph");
    expect(hits).toHaveLength(1);
    expect(hits[0].passage.pdfPage).toBe(2);
    // A question's word and its lemma stem alike in the index: searched once, they do not count twice.
    const { expression } = await searchLexical(db.client, { courseId, terms: ["graphs", "graph", "detection", "detect"], limit: 5 });
    expect(expression).toBe('"graphs" OR "detection"');
    // User text is never query syntax: operators, quotes, prefixes, column filters and stray parentheses are words.
    for (const hostile of ['"waits-for', "graph OR NOT NEAR(", "text: graph*", "^graph AND (", "(((", "-- ;", "NOT", "\"\""]) {
      await expect(search(hostile)).resolves.toBeDefined();
    }
    expect((await search('graph" OR "normalisation')).map((h) => h.passage.pdfPage).sort()).toEqual([1, 2]);
    expect(hits[0].passage.text).toContain("Deadlock detection uses a waits-for graph.");
    const [doc] = await getDocumentsWithRevisions(db.db, { courseId });
    expect(doc.title).toBe("week1");
    expect(doc.revisions[0]).toMatchObject({ number: 1, status: "ready", pageCount: 2 });
    expect(doc.currentRevisionId).toBe(doc.revisions[0].id);
  });

  it("makes an upload to an existing document revision N+1; only the current revision is searchable; old pages stay", async () => {
    const first = await upload("policy.pdf", await notes(["The late penalty is five percent per day."]));
    await processQueuedJobs(db, deps);
    const second = await upload("policy.pdf", await notes(["The late penalty is ten percent per day."]));
    expect(second.kind).toBe("created");
    expect(second.revision.number).toBe(2);
    expect(second.document.id).toBe(first.document.id);
    // Until revision 2 is indexed, revision 1 stays current and searchable.
    expect((await search("five")).map((h) => h.passage.revisionNumber)).toEqual([1]);
    await processQueuedJobs(db, deps);
    expect(await search("five")).toEqual([]);
    expect((await search("ten")).map((h) => h.passage.revisionNumber)).toEqual([2]);
    const oldPages = await db.db.select().from(pages).where(eq(pages.revisionId, first.revision.id));
    expect(oldPages[0].text).toContain("five percent");
    expect(await db.db.select().from(chunks).where(eq(chunks.revisionId, first.revision.id))).not.toHaveLength(0);
  });

  it("finds the current revision's passage when more than a fetch of old revisions' chunks rank above it", async () => {
    const stale = Array.from({ length: 14 }, (_, i) => `Quokka quokka quokka: field note ${i + 1} on the quokka colony.`);
    await upload("field.pdf", await notes(stale));
    await processQueuedJobs(db, deps);
    await upload("field.pdf", await notes(["Rottnest Island hosts one quokka colony among many other animals and plants."]));
    await processQueuedJobs(db, deps);
    // Fourteen old chunks outrank the current one; one limit's first fetch (limit + 8) holds only old ones, so the search widens.
    const hits = (await searchLexical(db.client, { courseId, terms: ["quokka"], limit: 1 })).hits;
    expect(hits.map((h) => [h.passage.revisionNumber, h.passage.pdfPage])).toEqual([[2, 1]]);
  });

  it("creates nothing for bytes identical to the latest revision, and says so", async () => {
    const bytes = await notes(["Identical content."]);
    await upload("same.pdf", bytes);
    await processQueuedJobs(db, deps);
    const again = await upload("same.pdf", bytes);
    expect(again.kind).toBe("unchanged");
    expect(again.revision.number).toBe(1);
    const [doc] = await getDocumentsWithRevisions(db.db, { courseId });
    expect(doc.revisions).toHaveLength(1);
  });

  it("numbers two concurrent uploads to one document in order and loses neither; the higher number ends current", async () => {
    const base = await upload("syllabus.pdf", await notes(["Version one of the syllabus."]));
    await processQueuedJobs(db, deps);
    const [a, b] = await Promise.all([
      upload("syllabus.pdf", await notes(["Version two of the syllabus."]), { documentId: base.document.id }),
      upload("syllabus.pdf", await notes(["Version three of the syllabus."]), { documentId: base.document.id }),
    ]);
    expect([a.revision.number, b.revision.number].sort()).toEqual([2, 3]);
    await processQueuedJobs(db, deps);
    const [doc] = await getDocumentsWithRevisions(db.db, { courseId });
    expect(doc.revisions.map((r) => [r.number, r.status])).toEqual([
      [3, "ready"],
      [2, "ready"],
      [1, "ready"],
    ]);
    expect(doc.currentRevisionId).toBe(doc.revisions[0].id);
  });

  it("deletes a document from search and the list, keeps its pages for old citations, and restores it on re-upload", async () => {
    const bytes = await notes(["Quiz three covers hashing."]);
    const first = await upload("quiz.pdf", bytes);
    await processQueuedJobs(db, deps);
    expect(await search("hashing")).toHaveLength(1);
    expect(await deleteDocument(db.db, { courseId, documentId: first.document.id })).toBe(true);
    expect(await search("hashing")).toEqual([]);
    expect(await getDocumentsWithRevisions(db.db, { courseId })).toEqual([]);
    expect(await db.db.select().from(pages).where(eq(pages.revisionId, first.revision.id))).toHaveLength(1);
    expect(await deleteDocument(db.db, { courseId, documentId: first.document.id })).toBe(false);
    // The same file again brings the document back as revision 2.
    const again = await upload("quiz.pdf", bytes);
    expect(again).toMatchObject({ kind: "created", revision: { number: 2 } });
    await processQueuedJobs(db, deps);
    expect((await search("hashing")).map((h) => h.passage.revisionNumber)).toEqual([2]);
  });

  it("keeps a document deleted while a revision of it was being indexed", async () => {
    const r = await upload("late.pdf", await notes(["Indexed after deletion."]));
    await deleteDocument(db.db, { courseId, documentId: r.document.id });
    await processQueuedJobs(db, deps);
    expect(await search("deletion")).toEqual([]);
  });

  it("marks a correction on upload", async () => {
    const r = await upload("fix.pdf", await notes(["Correction: the quiz moves to Friday."]), { isCorrection: true });
    expect(r.revision.isCorrection).toBe(true);
  });

  describe("bad input: a clear message and nothing half-indexed", () => {
    const rejects = async (fileName: string, bytes: Uint8Array, code: string, message: RegExp, maxBytes = 50 * MB) => {
      const err = await submitUpload(db.db, { courseId, fileName, bytes, maxBytes }).catch((e) => e);
      expect(isAppError(err)).toBe(true);
      expect(err.code).toBe(code);
      expect(err.message).toMatch(message);
      expect(await db.db.select().from(documents)).toEqual([]);
    };

    it("refuses a file that is not a PDF, judged by its bytes and not its name", async () => {
      await rejects("notes.pdf", new TextEncoder().encode("just some text, not a PDF"), "unsupported_media:upload", /not a PDF/);
    });
    it("refuses a truncated PDF", async () => {
      await rejects("cut.pdf", truncate(await notes(["Half a file."])), "bad_request:upload", /truncated/);
    });
    it("refuses an empty file", async () => {
      await rejects("empty.pdf", new Uint8Array(), "bad_request:upload", /empty/);
    });
    it("refuses a file over the size limit, naming the limit", async () => {
      await rejects("big.pdf", await notes(["Some text."]), "payload_too_large:upload", /limit is 0\.0 MB|limit/, 100);
    });

    const failsInWorker = async (fileName: string, bytes: Uint8Array, message: RegExp) => {
      const r = await upload(fileName, bytes);
      await processQueuedJobs(db, deps);
      const [doc] = await getDocumentsWithRevisions(db.db, { courseId });
      expect(doc.revisions[0].status).toBe("failed");
      expect(doc.revisions[0].error).toMatch(message);
      expect(doc.currentRevisionId).toBeNull();
      expect(await db.db.select().from(chunks).where(eq(chunks.revisionId, r.revision.id))).toEqual([]);
      expect(await db.db.select().from(pages).where(eq(pages.revisionId, r.revision.id))).toEqual([]);
    };

    it("fails a corrupt PDF with its reason", async () => {
      await failsInWorker("broken.pdf", corrupt(await notes(["Some text on a page.", "More text."])), /damaged/);
    });
    it("fails an encrypted PDF", async () => {
      await failsInWorker("locked.pdf", await buildEncryptedPdf(), /password/);
    });
    it("fails a PDF without a text layer, naming the pages", async () => {
      await failsInWorker("scan.pdf", await buildImageOnlyPdf(2), /pages 1–2.*OCR is not supported/);
    });
    it("fails a zero-page PDF", async () => {
      await failsInWorker("zero.pdf", buildZeroPagePdf(), /no pages/);
    });

    it("keeps the previous revision current when a new revision fails", async () => {
      const good = await upload("lab.pdf", await notes(["Lab two covers B-trees."]));
      await processQueuedJobs(db, deps);
      await upload("lab.pdf", await buildEncryptedPdf(), { documentId: good.document.id });
      await processQueuedJobs(db, deps);
      const [doc] = await getDocumentsWithRevisions(db.db, { courseId });
      expect(doc.revisions.map((r) => r.status)).toEqual(["failed", "ready"]);
      expect(doc.currentRevisionId).toBe(good.revision.id);
      expect(await search("B-trees")).toHaveLength(1);
    });

    it("stores a hostile file name safely: no folders, no control characters, bounded length, unicode kept", async () => {
      const bytes = await notes(["Unicode names work."]);
      const r1 = await upload("../../etc/passwd\u0000\u0007 notes.pdf", bytes);
      expect(r1.revision.fileName).toBe("passwd notes.pdf");
      const r2 = await upload("C:\\Users\\me\\Vorlesung Übung – Kapitel 3 ✓.pdf", await notes(["Other."]));
      expect(r2.revision.fileName).toBe("Vorlesung Übung – Kapitel 3 ✓.pdf");
      expect(r2.document.title).toBe("Vorlesung Übung – Kapitel 3 ✓");
      const r3 = await upload(`${"x".repeat(300)}.pdf`, await notes(["Long."]));
      expect(r3.revision.fileName.length).toBeLessThanOrEqual(200);
      expect(r3.revision.fileName.endsWith(".pdf")).toBe(true);
    });
  });

  it("resumes an interrupted job without duplicate or orphaned chunks, the previous revision current throughout", async () => {
    const first = await upload("handout.pdf", await notes(["Original handout text about indexing."]));
    await processQueuedJobs(db, deps);
    await upload("handout.pdf", await notes(["Revised handout text about hashing.", "A second page."]));
    // The process dies after the chunks are written but before the revision is published.
    const crash = new Error("simulated crash");
    await expect(processQueuedJobs(db, { ...deps, checkpoint: (s) => { if (s === "chunks_stored") throw crash; } })).resolves.toBe(1);
    // The job failed cleanly; but a real crash leaves it "running" under a lease that then expires: simulate that state too.
    const [job] = await db.db.select().from(ingestionJobs).where(eq(ingestionJobs.status, "failed"));
    expect(job.error).toMatch(/simulated crash/);
    await db.db.update(ingestionJobs).set({ status: "running", leaseOwner: "wrk_dead", leaseUntil: new Date(Date.now() - 1) }).where(eq(ingestionJobs.id, job.id));
    expect((await search("indexing")).map((h) => h.passage.revisionId)).toEqual([first.revision.id]);

    expect(await processQueuedJobs(db, deps)).toBe(1);
    const [doc] = await getDocumentsWithRevisions(db.db, { courseId });
    expect(doc.revisions[0]).toMatchObject({ number: 2, status: "ready" });
    const rows = await db.db.select().from(chunks).where(eq(chunks.revisionId, doc.revisions[0].id));
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.length).toBe(2);
    expect(await search("hashing")).toHaveLength(1);
    expect(await search("indexing")).toEqual([]);
  });

  it("the CLI path reports pages, chunks and status per file and keeps going past a bad file", async () => {
    const outcomes = await ingestFiles(db, deps, {
      courseId,
      files: [
        { name: "a.pdf", bytes: await notes(["Alpha page one.", "Alpha page two."]) },
        { name: "b.pdf", bytes: new TextEncoder().encode("not a pdf") },
      ],
      maxBytes: 50 * MB,
    });
    expect(outcomes.map((o) => [o.file, o.status, o.pages])).toEqual([
      ["a.pdf", "ready", 2],
      ["b.pdf", "rejected", null],
    ]);
    expect(outcomes[0].chunks).toBe(2);
    expect(outcomes[1].error).toMatch(/not a PDF/);
  });

  it("with an embedding model configured, stores vectors in batches and dense search finds the passage", async () => {
    const server = await startScriptedOpenAI({ embeddingDims: 64 });
    try {
      const embedder = createEmbedder({ model: "nomic-embed-text", baseURL: server.baseURL, apiKey: "test" })!;
      await upload("vec.pdf", await notes(["Two phase locking has a growing phase and a shrinking phase.", "Write ahead logging makes commits durable."]));
      await processQueuedJobs(db, { ...deps, embedder, embedBatchSize: 1 });
      expect(server.requests.filter((r) => r.path.endsWith("/embeddings"))).toHaveLength(2);
      const [query] = await embedder.embed(["write ahead logging durable commits"]);
      const { toStoredVector } = await import("@/lib/ai/vectors");
      const hits = await searchDense(db.client, { courseId, vector: toStoredVector(query), limit: 1 });
      expect(hits[0].passage.pdfPage).toBe(2);
      expect(hits[0].score).toBeGreaterThan(0.5);
    } finally {
      await server.close();
    }
  });
});
