import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureCourse } from "@/lib/db/queries/courses";
import { openTempDb } from "@/lib/db/temp";
import { insertPlainDocument } from "@/lib/db/plain-documents";
import { searchLexical, searchRows } from "./search";

type TempDb = Awaited<ReturnType<typeof openTempDb>>;
let db: TempDb;
let courseId: string;

/** More chunks than the postings budget (4,000), so that common words exceed it. */
const CHUNKS = 4_600;

beforeAll(async () => {
  db = await openTempDb();
  courseId = (await ensureCourse(db.db, { slug: "large-course" })).id;
  // The oldest chunk holds a rare word; every chunk holds the common ones, and the newest says them most often.
  const texts = Array.from({ length: CHUNKS }, (_, i) => `Weekly reading ${i} for the seminar, with questions for discussion in section.`);
  texts[0] = "The seminar opens with the archipelago field trip; reading and discussion follow in section.";
  texts[CHUNKS - 3] = "Reading, reading and more reading: the seminar's discussion of each reading comes in section.";
  await insertPlainDocument(db.client, { courseId, title: "Readings, part 1", texts: texts.slice(0, CHUNKS / 2) });
  await insertPlainDocument(db.client, { courseId, title: "Readings, part 2", texts: texts.slice(CHUNKS / 2) });
});
afterAll(() => db.dispose());

describe("searchLexical on a course larger than the postings budget", () => {
  it("searches a rare term alone and finds it wherever it is, without sampling", async () => {
    const { expression, hits } = await searchLexical(db.client, { courseId, terms: ["archipelago", "seminar", "reading"], limit: 3 });
    expect(expression).toBe('"archipelago"');
    expect(hits[0].passage.text).toContain("archipelago");
  });

  it("scores only the newest matches when every term is common, ranked by BM25 among them", async () => {
    const { expression, hits } = await searchLexical(db.client, { courseId, terms: ["seminar", "reading", "discussion"], limit: 3 });
    // Over the budget, counts are cut short: the longer word is taken as the rarer.
    expect(expression).toContain('"discussion" AND "seminar" AND "reading"');
    expect(expression).toContain("newest 4000 matches scored");
    expect(hits).toHaveLength(3);
    expect(hits[0].passage.text).toMatch(/^Reading, reading and more reading/);
    // The oldest chunks lie outside the newest 4,000.
    expect(hits.some((h) => h.passage.text.includes("archipelago"))).toBe(false);
  });

  it("budgets a single common word too", async () => {
    const { expression, hits } = await searchLexical(db.client, { courseId, terms: ["discussion"], limit: 2 });
    expect(expression).toBe('"discussion" (newest 4000 matches scored)');
    expect(hits).toHaveLength(2);
  });

  it("leaves out a term no chunk holds before planning", async () => {
    const { expression, hits } = await searchLexical(db.client, { courseId, terms: ["seminar", "xylophone"], limit: 2 });
    expect(expression).toBe('"seminar" (newest 4000 matches scored)');
    expect(hits).toHaveLength(2);
  });
});

describe("searchLexical on a small course sharing the index with a large one", () => {
  let smallId: string;
  beforeAll(async () => {
    smallId = (await ensureCourse(db.db, { slug: "small-course" })).id;
    await insertPlainDocument(db.client, {
      courseId: smallId,
      title: "Studio handbook",
      texts: ["Pin-up reading for the seminar is posted on Mondays.", "Discussion sections meet in the studio on Thursdays.", "The seminar's final discussion is a public review."],
    });
  });

  it("plans with the course's own counts: its words are rare in it, whatever the other course holds", async () => {
    const { expression, hits } = await searchLexical(db.client, { courseId: smallId, terms: ["seminar", "reading", "discussion"], limit: 3 });
    expect(expression).toBe('"seminar" OR "reading" OR "discussion"');
    expect(hits.map((h) => h.passage.text)).toHaveLength(3);
    expect(hits[0].passage.text).toMatch(/^Pin-up reading for the seminar|^The seminar's final discussion/);
  });

  it("keeps the large course's plan", async () => {
    const { expression } = await searchLexical(db.client, { courseId, terms: ["archipelago", "seminar", "reading"], limit: 3 });
    expect(expression).toBe('"archipelago"');
  });
});

describe("a passage's page text before it", () => {
  const page = "Example 4.2 (Kiln load).\nThe kiln holds 40 mugs a firing.\nResult: 120 mugs need 3 firings.";
  // The example's check runs on over the page break; the glaze notes open a section of their own.
  const nextPage = "Check: three loads fill the shelves twice.\n\nGlaze notes\nDip each piece twice.";
  let kilnId: string;
  beforeAll(async () => {
    kilnId = (await ensureCourse(db.db, { slug: "kiln-course" })).id;
    const [documentId, revisionId] = ["doc_kiln", "rev_kiln"];
    const [first, second] = [page.indexOf("The kiln"), page.indexOf("Result")];
    await db.client.batch(
      [
        { sql: "INSERT INTO documents (id, course_id, title) VALUES (?, ?, 'Kiln notes')", args: [documentId, kilnId] },
        { sql: "INSERT INTO revisions (id, document_id, number, sha256, file_name, size, status) VALUES (?, ?, 1, 'kiln', 'kiln.pdf', 0, 'ready')", args: [revisionId, documentId] },
        { sql: "INSERT INTO pages (revision_id, pdf_page, text) VALUES (?, 1, ?), (?, 2, ?)", args: [revisionId, page, revisionId, nextPage] },
        {
          sql: "INSERT INTO chunks (id, revision_id, document_id, course_id, pdf_page, ordinal, text, char_start, char_end, tokens) VALUES ('chk_kiln_0', ?1, ?2, ?3, 1, 0, ?4, 0, ?5, 10), ('chk_kiln_1', ?1, ?2, ?3, 1, 1, ?6, ?7, ?8, 10), ('chk_kiln_2', ?1, ?2, ?3, 2, 0, ?9, 0, ?10, 10)",
          args: [revisionId, documentId, kilnId, page.slice(0, second), second, page.slice(first), first, page.length, nextPage, nextPage.length],
        },
        { sql: "UPDATE documents SET current_revision_id = ? WHERE id = ?", args: [revisionId, documentId] },
      ],
      "write",
    );
  });

  it("carries the page text before the chunk (the title of the example it continues), and none for a chunk that opens its page", async () => {
    const { hits } = await searchLexical(db.client, { courseId: kilnId, terms: ["firing", "mugs"], limit: 2 });
    const byId = new Map(hits.map((h) => [h.passage.chunkId, h.passage]));
    expect(byId.get("chk_kiln_1")?.before).toBe("Example 4.2 (Kiln load).\n");
    expect(byId.get("chk_kiln_0")?.before).toBeUndefined();
  });

  it("carries the title of the section a page opens inside, the last one of the page before, with the line that states its example", async () => {
    const { hits } = await searchLexical(db.client, { courseId: kilnId, terms: ["shelves"], limit: 1 });
    expect(hits[0].passage.chunkId).toBe("chk_kiln_2");
    expect(hits[0].passage.before).toBe("Example 4.2 (Kiln load).\nThe kiln holds 40 mugs a firing.\n");
  });
});

describe("searchRows: a table row by its identifier", () => {
  const page = "Studio schedule\n\nWeek Date Topic\n1 Jan 6 Clay bodies\n2 Jan 13 Wedging and centring\n3 Jan 20 Throwing cylinders\n4 Jan 27 Trimming feet";
  const other = "Kiln rooms\n\nRoom Shelf Load\n3 B12 bisque ware\n4 B14 glaze ware";
  let potteryId: string;
  beforeAll(async () => {
    potteryId = (await ensureCourse(db.db, { slug: "pottery-course" })).id;
    const cut = page.indexOf("3 Jan 20");
    await db.client.batch(
      [
        { sql: "INSERT INTO documents (id, course_id, title) VALUES ('doc_pot', ?, 'Pottery syllabus')", args: [potteryId] },
        { sql: "INSERT INTO revisions (id, document_id, number, sha256, file_name, size, status) VALUES ('rev_pot', 'doc_pot', 1, 'pot', 'pot.pdf', 0, 'ready')", args: [] },
        { sql: "INSERT INTO pages (revision_id, pdf_page, text) VALUES ('rev_pot', 1, ?), ('rev_pot', 2, ?)", args: [page, other] },
        {
          sql: "INSERT INTO chunks (id, revision_id, document_id, course_id, pdf_page, ordinal, text, char_start, char_end, tokens) VALUES ('chk_pot_0', 'rev_pot', 'doc_pot', ?1, 1, 0, ?2, 0, ?3, 10), ('chk_pot_1', 'rev_pot', 'doc_pot', ?1, 1, 1, ?4, ?3, ?5, 10), ('chk_pot_2', 'rev_pot', 'doc_pot', ?1, 2, 0, ?6, 0, ?7, 10)",
          args: [potteryId, page.slice(0, cut), cut, page.slice(cut), page.length, other, other.length],
        },
        { sql: "UPDATE documents SET current_revision_id = 'rev_pot' WHERE id = 'doc_pot'", args: [] },
      ],
      "write",
    );
  });

  it("finds the chunk whose row opens with the id under a header naming the noun, though the chunk holds neither the noun nor the header", async () => {
    const hits = await searchRows(db.client, { courseId: potteryId, noun: "week", id: "3", limit: 2 });
    expect(hits.map((h) => h.passage.chunkId)).toEqual(["chk_pot_1"]);
  });

  it("finds a row of a table that goes on across a page break, its passage carrying the header and rows of the page before", async () => {
    const first = "Glaze lab plan\n\nWeek Date Glaze work\n1 Mar 2 Test tiles (see\n2 Mar 9 Dipping";
    const second = "note on tongs)\n\n3 Mar 16 Spraying\n4 Mar 23 Layering\n\nStudio rules\nNo food near the kilns.";
    const glazeId = (await ensureCourse(db.db, { slug: "glaze-course" })).id;
    await db.client.batch(
      [
        { sql: "INSERT INTO documents (id, course_id, title) VALUES ('doc_gl', ?, 'Glaze lab plan')", args: [glazeId] },
        { sql: "INSERT INTO revisions (id, document_id, number, sha256, file_name, size, status) VALUES ('rev_gl', 'doc_gl', 1, 'gl', 'gl.pdf', 0, 'ready')", args: [] },
        { sql: "INSERT INTO pages (revision_id, pdf_page, text) VALUES ('rev_gl', 1, ?), ('rev_gl', 2, ?)", args: [first, second] },
        {
          sql: "INSERT INTO chunks (id, revision_id, document_id, course_id, pdf_page, ordinal, text, char_start, char_end, tokens) VALUES ('chk_gl_0', 'rev_gl', 'doc_gl', ?1, 1, 0, ?2, 0, ?3, 10), ('chk_gl_1', 'rev_gl', 'doc_gl', ?1, 2, 0, ?4, 0, ?5, 10)",
          args: [glazeId, first, first.length, second, second.length],
        },
        { sql: "UPDATE documents SET current_revision_id = 'rev_gl' WHERE id = 'doc_gl'", args: [] },
      ],
      "write",
    );
    const hits = await searchRows(db.client, { courseId: glazeId, noun: "week", id: "4", limit: 2 });
    expect(hits.map((h) => h.passage.chunkId)).toEqual(["chk_gl_1"]);
    expect(hits[0].passage.before).toBe("Week Date Glaze work\n1 Mar 2 Test tiles (see\n2 Mar 9 Dipping\n");
    // The first page has nothing above it.
    expect((await searchLexical(db.client, { courseId: glazeId, terms: ["dipping"], limit: 1 })).hits[0].passage.before).toBeUndefined();
  });

  it("finds nothing where the rows sit under another header", async () => {
    expect(await searchRows(db.client, { courseId: potteryId, noun: "assignment", id: "3", limit: 2 })).toEqual([]);
    // The kiln-room table's rows open with 3 and 4 too, under "Room Shelf Load".
    expect((await searchRows(db.client, { courseId: potteryId, noun: "room", id: "4", limit: 2 })).map((h) => h.passage.chunkId)).toEqual(["chk_pot_2"]);
  });
});
