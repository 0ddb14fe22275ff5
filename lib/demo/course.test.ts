import { beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/ai/tokenizer";
import { formatPageLabel, type Block } from "@/lib/pdf/build";
import { chunkPages } from "@/lib/rag/chunk";
import { extractPdf } from "@/lib/rag/extract";
import type { ExtractState } from "@/lib/rag/types";
import {
  DEMO_DOCUMENT_TITLES,
  DEMO_FACTS,
  DEMO_FILE_NAMES,
  demoCourse,
  demoDocumentSpec,
  demoDocuments,
  type DemoDocument,
  type DemoDocumentKey,
} from "./course";

const KEYS = Object.keys(DEMO_DOCUMENT_TITLES) as DemoDocumentKey[];

let docs: DemoDocument[];
const extracted = new Map<DemoDocumentKey, ExtractState>();

beforeAll(async () => {
  docs = await demoDocuments();
  for (const key of KEYS) {
    const doc = docs.find((d) => d.title === DEMO_DOCUMENT_TITLES[key]);
    if (!doc) throw new Error(`demoDocuments() has no document titled "${DEMO_DOCUMENT_TITLES[key]}"`);
    extracted.set(key, await extractPdf(doc.bytes));
  }
});

const state = (key: DemoDocumentKey) => extracted.get(key)!;

/** The words a reader sees on each page of a spec, in reading order, footer included. */
function expectedWords(key: DemoDocumentKey): string[][] {
  const spec = demoDocumentSpec(key);
  const words = (s: string) => s.split(/\s+/).filter(Boolean);
  const blockWords = (b: Block): string[] => {
    switch (b.kind) {
      case "bullet":
        return ["•", ...words(b.text)];
      case "table":
        return b.rows.flatMap((r) => r.flatMap(words));
      case "columns":
        return [...words(b.left), ...words(b.right)];
      default:
        return words(b.text);
    }
  };
  return spec.pages.map((p, i) => [...p.blocks.flatMap(blockWords), formatPageLabel(i, spec.pageLabels)]);
}

describe("the demo course", () => {
  it("has a fixed slug and title", () => {
    expect(demoCourse).toEqual({ slug: "demo-cs101", title: "CS 101: Introduction to Databases" });
  });

  it("has four documents in upload order, the correction last and the only correction", () => {
    expect(docs.map((d) => d.title)).toEqual([
      "Course Syllabus",
      "Assignment 3 Notice",
      "Lecture Notes: Transactions",
      "Assignment 3 Deadline Correction",
    ]);
    expect(docs.filter((d) => d.isCorrection).map((d) => d.title)).toEqual(["Assignment 3 Deadline Correction"]);
    for (const d of docs) {
      expect(d.fileName).toMatch(/^[a-z0-9-]+\.pdf$/);
      expect(Buffer.from(d.bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    }
    expect(new Set(docs.map((d) => d.fileName)).size).toBe(4);
    expect(Object.values(DEMO_FILE_NAMES).sort()).toEqual(docs.map((d) => d.fileName).sort());
  });

  it("is generated deterministically", async () => {
    const again = await demoDocuments();
    again.forEach((d, i) => expect(Buffer.from(d.bytes).equals(Buffer.from(docs[i].bytes)), d.title).toBe(true));
  });
});

describe("demo documents extract cleanly", () => {
  it.each(KEYS)("%s: expected page count, text on every page", (key) => {
    const s = state(key);
    expect(s.pageCount).toBe(DEMO_FACTS.pageCounts[key]);
    expect(s.pagesWithoutText).toEqual([]);
  });

  it.each(KEYS)("%s: every word comes out whole and in reading order", (key) => {
    const actual = state(key).pages.map((p) => p.text.split(/\s+/).filter(Boolean));
    expect(actual).toEqual(expectedWords(key));
  });

  it.each(KEYS)("%s: no layout residue (broken words, stray spaces, replacement characters)", (key) => {
    for (const p of state(key).pages) {
      expect(p.text).not.toMatch(/[a-z]-\n[a-z]/);
      expect(p.text).not.toMatch(/ {2,}|\uFFFD|\t/);
    }
  });

  it("labels the lecture notes i, ii, then 1–4, and nothing else has labels", () => {
    expect(state("lecture").pages.map((p) => p.pageLabel)).toEqual(["i", "ii", "1", "2", "3", "4"]);
    for (const key of KEYS.filter((k) => k !== "lecture")) {
      expect(state(key).pages.every((p) => p.pageLabel === null)).toBe(true);
    }
  });
});

describe("DEMO_FACTS", () => {
  const sentences = Object.entries(DEMO_FACTS.sentences);

  it.each(sentences)("%s: the sentence is on its stated PDF page and no other", (_name, fact) => {
    const s = state(fact.document);
    const pages = s.pages.filter((p) => p.text.includes(fact.sentence)).map((p) => p.pdfPage);
    expect(pages).toEqual([fact.pdfPage]);
    expect(s.pages[fact.pdfPage - 1].pageLabel).toBe(fact.pageLabel);
  });

  it.each(sentences)("%s: the sentence lies whole inside a chunk of its page (default chunking)", (_name, fact) => {
    const { chunks } = chunkPages(state(fact.document).pages, countTokens);
    const holding = chunks.filter((c) => c.text.includes(fact.sentence));
    expect(holding.length).toBeGreaterThan(0);
    expect(new Set(holding.map((c) => c.pdfPage))).toEqual(new Set([fact.pdfPage]));
  });

  it("points at a lecture page whose printed label differs from its physical number", () => {
    const { pdfPage, label, sentence } = DEMO_FACTS.lecturePage;
    const page = state("lecture").pages[pdfPage - 1];
    expect(page.pageLabel).toBe(label);
    expect(label).not.toBe(String(pdfPage));
    expect(page.text).toContain(sentence);
  });

  it("states each deadline in the sentences that quote it", () => {
    const f = DEMO_FACTS;
    expect(f.sentences.assignment1Due.sentence).toContain(f.assignment1Due);
    expect(f.sentences.assignment2Due.sentence).toContain(f.assignment2Due);
    expect(f.sentences.assignment3Due.sentence).toContain(f.assignment3Due);
    expect(f.sentences.noticeDue.sentence).toContain(f.assignment3Due);
    expect(f.sentences.correction.sentence).toMatch(/^Correction: Assignment 3 is now due on /);
    expect(f.sentences.correction.sentence).toContain(f.assignment3CorrectedDue);
    expect(f.assignment3CorrectedDue).not.toBe(f.assignment3Due);
    expect(f.sentences.latePolicy.sentence).toContain(f.latePenalty);
    expect(f.sentences.latePolicy.sentence).toContain(`up to ${f.lateMaxDays} days`);
    expect(f.sentences.instructor.sentence).toContain(f.instructor);
    expect(f.sentences.officeHours.sentence).toContain(f.officeHours);
  });

  it("has the original Assignment 3 deadline in the syllabus and notice, the new one only in the correction", () => {
    const all = (key: DemoDocumentKey) => state(key).pages.map((p) => p.text).join("\n");
    expect(all("syllabus")).toContain(DEMO_FACTS.assignment3Due);
    expect(all("notice")).toContain(DEMO_FACTS.assignment3Due);
    for (const key of KEYS) {
      expect(all(key).includes(DEMO_FACTS.assignment3CorrectedDue), key).toBe(key === "correction");
    }
  });

  it("prints the grading weights as a table, one row per line, adding up to 100%", () => {
    const lines = state("syllabus").pages[2].text.split("\n");
    for (const row of DEMO_FACTS.gradingTable) expect(lines).toContain(row.join(" "));
    const w = DEMO_FACTS.gradingWeights;
    expect([w.assignments, w.midterm, w.finalExam, w.participation].reduce((n, x) => n + parseInt(x, 10), 0)).toBe(100);
  });

  it("never mentions Assignment 4 (the unanswerable part of demo questions)", () => {
    for (const key of KEYS) {
      const text = state(key).pages.map((p) => p.text).join("\n");
      expect(text, key).not.toMatch(/assignment\s*(4|four|iv)\b/i);
      expect(text, key).not.toMatch(/fourth assignment/i);
    }
    expect(DEMO_FACTS.unanswerable).toBe("Assignment 4");
  });
});
