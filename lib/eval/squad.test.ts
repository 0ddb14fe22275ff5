/**
 * The SQuAD 2.0 benchmark's loader, scoring rule, BM25 baseline and database builder, on small
 * articles written for these tests (no SQuAD text here). Answer quality on the real slice is
 * measured by `npm run bench -- squad`, not asserted.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { courses, documents, pages } from "@/lib/db/schema";
import { paragraphLines } from "@/lib/pdf/build";
import type { AnswerCitation, AnswerStatus } from "@/lib/rag/pipeline";
import {
  bm25SentenceBaseline,
  buildSquadDb,
  loadSquad,
  scoreSquadAnswer,
  splitSentences,
  squadCases,
  squadMatchKey,
  transliterate,
  type SquadArticle,
  type SquadDb,
} from "./squad";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "squad-test-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const writeJson = (name: string, content: unknown) => {
  const path = join(dir, name);
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return path;
};

const LIGHTHOUSE = "The Kelmsby lighthouse was built in 1871 by the engineer Ada Morrow.";
const validFile = () => ({
  version: "v2.0",
  data: [
    {
      title: "Kelmsby_(harbour)",
      paragraphs: [
        {
          context: `${LIGHTHOUSE} Its lamp burned whale oil until 1902.`,
          qas: [
            { id: "q1", question: "Who built the Kelmsby lighthouse?", is_impossible: false, answers: [{ text: "Ada Morrow", answer_start: LIGHTHOUSE.indexOf("Ada Morrow") }, { text: "Ada Morrow", answer_start: LIGHTHOUSE.indexOf("Ada Morrow") }] },
            { id: "q2", question: "Who demolished the Kelmsby lighthouse?", is_impossible: true, answers: [], plausible_answers: [{ text: "Ada Morrow", answer_start: LIGHTHOUSE.indexOf("Ada Morrow") }] },
          ],
        },
      ],
    },
  ],
});

describe("loadSquad", () => {
  it("reads a valid file into articles, paragraphs and questions with deduplicated answers", () => {
    const [article] = loadSquad(writeJson("ok.json", validFile()));
    expect(article.title).toBe("Kelmsby_(harbour)");
    expect(article.paragraphs[0].questions).toEqual([
      { id: "q1", question: "Who built the Kelmsby lighthouse?", answerable: true, answers: ["Ada Morrow"], plausibleAnswers: [] },
      { id: "q2", question: "Who demolished the Kelmsby lighthouse?", answerable: false, answers: [], plausibleAnswers: ["Ada Morrow"] },
    ]);
  });

  it("rejects a malformed file with the reason", () => {
    expect(() => loadSquad(writeJson("broken.json", "{ not json"))).toThrow(/broken\.json: not a SQuAD 2\.0 file: not JSON/);

    const missingFlag = validFile();
    delete (missingFlag.data[0].paragraphs[0].qas[0] as { is_impossible?: boolean }).is_impossible;
    expect(() => loadSquad(writeJson("flag.json", missingFlag))).toThrow(/flag\.json: not a SQuAD 2\.0 file: data\.0\.paragraphs\.0\.qas\.0\.is_impossible: /);

    expect(() => loadSquad(writeJson("empty.json", { version: "v2.0", data: [] }))).toThrow(/empty\.json: not a SQuAD 2\.0 file: data: /);

    const offset = validFile();
    offset.data[0].paragraphs[0].qas[0].answers[0].answer_start += 3;
    expect(() => loadSquad(writeJson("offset.json", offset))).toThrow(/id q1\): answer "Ada Morrow" is not at answer_start/);

    const noAnswer = validFile();
    noAnswer.data[0].paragraphs[0].qas[0].answers = [];
    expect(() => loadSquad(writeJson("noanswer.json", noAnswer))).toThrow(/answerable question \(is_impossible false\) without answers/);

    const duplicate = validFile();
    duplicate.data[0].paragraphs[0].qas[1].id = "q1";
    expect(() => loadSquad(writeJson("dup.json", duplicate))).toThrow(/duplicate question id/);
  });

  it("names the expected path when the file is missing", () => {
    expect(() => loadSquad(join(dir, "absent.json"))).toThrow(/SQuAD 2\.0 slice is missing: expected .*absent\.json/);
  });
});

describe("transliteration", () => {
  it("replaces what Helvetica cannot encode, keeps WinAnsi text, and is idempotent", async () => {
    const raw = "If Π2 reduces to Π1 and P ⊆ NP ≠ θ, then √n — “café” ﬁne\u00ADly.";
    const out = transliterate(raw);
    expect(out).toBe("If Pi2 reduces to Pi1 and P <= NP != theta, then sqrtn — “café” finely.");
    expect(transliterate(out)).toBe(out);
    // The PDF builder accepts it (it throws on anything WinAnsi cannot encode).
    await expect(paragraphLines(transliterate("Ωμέγα ∀x ⊇ ∅ ☃"))).resolves.toBeInstanceOf(Array);
  });
});

// ─── Scoring ────────────────────────────────────────────────────────────────────────────────

const cite = (pdfPage: number, quote: string) => ({ pdfPage, quote }) as AnswerCitation;
const answer = (status: AnswerStatus, citations: AnswerCitation[] = []) => ({
  status,
  parts: [{ ask: "q", state: "supported" as const, claims: citations.length ? [{ text: "claim", citations }] : [] }],
});

describe("scoreSquadAnswer", () => {
  const answerable = { answerable: true, pdfPage: 3, answers: ["Ada Morrow", "the engineer Ada Morrow"] };
  const unanswerable = { answerable: false, pdfPage: 3, answers: [] };

  it("counts an answered or partial answer citing the gold page with a quote holding a gold answer", () => {
    expect(scoreSquadAnswer(answer("answered", [cite(3, "It was built by the  ENGINEER\nAda   Morrow in 1871.")]), answerable)).toBe(true);
    expect(scoreSquadAnswer(answer("partial", [cite(1, "Unrelated."), cite(3, "built by Ada Morrow")]), answerable)).toBe(true);
  });

  it("rejects a citation on another page, even with the answer in its quote", () => {
    expect(scoreSquadAnswer(answer("answered", [cite(2, "built by Ada Morrow")]), answerable)).toBe(false);
  });

  it("rejects a quote on the gold page that does not contain a gold answer", () => {
    expect(scoreSquadAnswer(answer("answered", [cite(3, "The lighthouse was built in 1871.")]), answerable)).toBe(false);
    expect(scoreSquadAnswer(answer("answered", [cite(3, "built by Ada")]), answerable)).toBe(false);
  });

  it("rejects a declined or failed answer to an answerable question", () => {
    expect(scoreSquadAnswer(answer("insufficient_evidence"), answerable)).toBe(false);
    expect(scoreSquadAnswer(answer("conflicting_evidence", [cite(3, "built by Ada Morrow")]), answerable)).toBe(false);
  });

  it("counts a declined unanswerable question and rejects an answered one", () => {
    expect(scoreSquadAnswer(answer("insufficient_evidence"), unanswerable)).toBe(true);
    expect(scoreSquadAnswer(answer("answered", [cite(3, "built by Ada Morrow")]), unanswerable)).toBe(false);
    expect(scoreSquadAnswer(answer("partial", [cite(3, "built by Ada Morrow")]), unanswerable)).toBe(false);
    expect(scoreSquadAnswer(answer("retrieval_error"), unanswerable)).toBe(false);
  });

  it("compares gold answers and quotes after the same transliteration as the PDF text", () => {
    const maths = { answerable: true, pdfPage: 1, answers: ["P ⊆ NP"] };
    expect(scoreSquadAnswer(answer("answered", [cite(1, "It is known that P <= NP holds.")]), maths)).toBe(true);
    expect(squadMatchKey("P ⊆ NP")).toBe(squadMatchKey("p <=  NP"));
  });
});

// ─── The BM25 baseline ──────────────────────────────────────────────────────────────────────

const q = (id: string, question: string, answers: string[]) => ({ id, question, answerable: answers.length > 0, answers, plausibleAnswers: [] });

const ORCHARD: SquadArticle = {
  title: "Orchard_cooperative",
  paragraphs: [
    {
      context:
        "The Brindle Valley orchard cooperative was founded in 1934 by eleven apple growers. Its first chairman was Tomas Ferreira. " +
        "Members sold cider to towns along the river.",
      questions: [q("b1", "Who was the first chairman of the cooperative?", ["Tomas Ferreira"]), q("b2", "When was the orchard cooperative founded?", ["1934"])],
    },
    {
      context:
        "Frost destroyed most of the blossom in the spring of 1956. The growers then planted pear trees on the higher slopes! " +
        "Pears now make up a third of the harvest.",
      questions: [
        q("b3", "Which trees were planted on the higher slopes after the frost?", ["pear trees"]),
        q("b4", "What share of the harvest do pears make up?", ["a third"]),
        q("b5", "Who was the last chairman of the cooperative?", []),
      ],
    },
  ],
};

describe("bm25SentenceBaseline", () => {
  it("splits sentences after . ! ? before a capital", () => {
    expect(splitSentences("One is here. Two is there! Three? yes, e.g. four. Five")).toEqual(["One is here.", "Two is there!", "Three? yes, e.g. four.", "Five"]);
  });

  it("picks the sentence that answers the question, on its paragraph's page, and never declines", () => {
    const results = new Map(bm25SentenceBaseline([ORCHARD]).map((r) => [r.id, r]));
    expect(results.get("b1")).toMatchObject({ sentence: "Its first chairman was Tomas Ferreira.", pdfPage: 1, containsAnswer: true });
    expect(results.get("b2")).toMatchObject({ sentence: expect.stringContaining("founded in 1934"), pdfPage: 1, containsAnswer: true });
    expect(results.get("b3")).toMatchObject({ sentence: "The growers then planted pear trees on the higher slopes!", pdfPage: 2, containsAnswer: true });
    expect(results.get("b4")).toMatchObject({ sentence: "Pears now make up a third of the harvest.", pdfPage: 2, containsAnswer: true });
    // An unanswerable question still gets a sentence (the baseline never declines) and never counts.
    expect(results.get("b5")).toMatchObject({ answerable: false, containsAnswer: false, sentence: expect.stringContaining("chairman") });
  });
});

// ─── End to end: PDFs, ingestion, courses ───────────────────────────────────────────────────

describe("buildSquadDb", () => {
  const TIDES: SquadArticle = {
    title: "Tide_mill_(Orrin)",
    paragraphs: [
      { context: "The tide mill at Orrin ground wheat for four villages. Its wheel turned twice a day as the sea rose and fell.", questions: [q("t1", "How often did the wheel turn?", ["twice a day"])] },
      { context: "The miller measured the angle θ of the sluice gate with a brass quadrant. The mill closed in 1931.", questions: [q("t2", "What did the miller measure the angle θ with?", ["a brass quadrant"]), q("t3", "When did the mill reopen?", [])] },
    ],
  };
  let db: SquadDb;
  beforeAll(async () => {
    db = await buildSquadDb({ articles: [TIDES] });
  });
  afterAll(() => db?.dispose());

  it("makes one course per article holding one document with one paragraph a page", async () => {
    expect([...db.courses.keys()]).toEqual(["Tide_mill_(Orrin)"]);
    const courseId = db.courses.get("Tide_mill_(Orrin)")!;
    const [course] = await db.handle.db.select().from(courses).where(eq(courses.id, courseId));
    expect(course).toMatchObject({ slug: "squad-tide-mill-orrin", title: "Tide mill (Orrin)" });

    const docs = await db.handle.db.select().from(documents).where(eq(documents.courseId, courseId));
    expect(docs).toHaveLength(1);
    expect(docs[0].title).toBe("Tide mill (Orrin)");
    const stored = await db.handle.db
      .select({ pdfPage: pages.pdfPage, text: pages.text })
      .from(pages)
      .where(and(eq(pages.revisionId, docs[0].currentRevisionId!)))
      .orderBy(pages.pdfPage);
    expect(stored.map((p) => p.pdfPage)).toEqual([1, 2]);
    stored.forEach((p, i) => expect(squadMatchKey(p.text)).toContain(squadMatchKey(TIDES.paragraphs[i].context)));
    expect(stored[1].text).toContain("angle theta");
  });

  it("gives every case its course and gold page, with answers as the pages spell them", () => {
    const cases = squadCases([TIDES], db.courses);
    const courseId = db.courses.get("Tide_mill_(Orrin)");
    expect(cases.map((c) => [c.id, c.courseId, c.pdfPage, c.answerable])).toEqual([
      ["t1", courseId, 1, true],
      ["t2", courseId, 2, true],
      ["t3", courseId, 2, false],
    ]);
    expect(cases[1].answers).toEqual(["a brass quadrant"]);
  });
});
