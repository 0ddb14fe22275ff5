import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import {
  breakPage,
  buildEncryptedPdf,
  buildImageOnlyPdf,
  buildPdf,
  buildZeroPagePdf,
  corrupt,
  formatPageLabel,
  paragraphLines,
  PdfBuildError,
  truncate,
  type Block,
} from "@/lib/pdf/build";
import { describePages, ExtractError, extractPdf, isExtractError, sniffPdf, type ExtractFailure } from "./extract";
import { normalizeInline, normalizeText } from "./normalize";
import { CORPUS_DIR, requireCorpus as requireCorpus_ } from "@/lib/pdf/corpus";
import type { ExtractState } from "./types";

// ─── Helpers ────────────────────────────────────────────────────────────────────────────────

const requireCorpus = () => requireCorpus_("the extraction tests read");

const corpusCache = new Map<string, Promise<ExtractState>>();
function extractCorpus(file: string): Promise<ExtractState> {
  requireCorpus();
  let p = corpusCache.get(file);
  if (!p) {
    p = extractPdf(new Uint8Array(readFileSync(resolve(CORPUS_DIR, file))));
    corpusCache.set(file, p);
  }
  return p;
}

/** Physical pages whose text contains `needle`. */
function pagesContaining(state: ExtractState, needle: string): number[] {
  return state.pages.filter((p) => p.text.includes(needle)).map((p) => p.pdfPage);
}

async function expectFailure(bytes: Uint8Array, failure: ExtractFailure, message: RegExp): Promise<ExtractError> {
  const error = await extractPdf(bytes).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `expected ExtractError(${failure})`).toBeInstanceOf(ExtractError);
  const e = error as ExtractError;
  expect(isExtractError(e)).toBe(true);
  expect(e.failure).toBe(failure);
  expect(e.message).toMatch(message);
  return e;
}

const lines = (text: string) => text.split("\n");

// ─── Generated PDFs with known content ──────────────────────────────────────────────────────

describe("extractPdf on generated PDFs", () => {
  const topics = ["relational algebra", "query optimisation", "index structures", "crash recovery", "replication"];
  const marker = (i: number) => `The marker sentence of page ${i + 1} is about ${topics[i]}.`;

  it("returns one page per physical page, in order, each known sentence on exactly its own page", async () => {
    const bytes = await buildPdf({
      title: "Five pages",
      pages: topics.map((topic, i) => ({
        blocks: [
          { kind: "heading", text: `Part ${i + 1}: ${topic}` },
          {
            kind: "paragraph",
            text:
              `This part of the notes explains ${topic} from first principles. ${marker(i)} ` +
              "Each section ends with a short summary and a few exercises that check your understanding.",
          },
          { kind: "bullet", text: `Exercise ${i + 1}.1 asks you to describe ${topic} in your own words.` },
        ],
      })),
    });
    const state = await extractPdf(bytes);
    expect(state.pageCount).toBe(5);
    expect(state.pages.map((p) => p.pdfPage)).toEqual([1, 2, 3, 4, 5]);
    expect(state.pagesWithoutText).toEqual([]);
    topics.forEach((_, i) => expect(pagesContaining(state, marker(i)), marker(i)).toEqual([i + 1]));
    // Without page labels, no page has a label of its own.
    expect(state.pages.every((p) => p.pageLabel === null)).toBe(true);
  });

  it("keeps a justified, hyphenated paragraph as one line of text with whole words", async () => {
    const paragraph =
      "Concurrency control guarantees that interleaved transactions produce serializable outcomes, while " +
      "recovery management guarantees durability after crashes. Administrators occasionally misunderstand " +
      "internationalization requirements, characteristically underestimating incomprehensibilities in " +
      "multilingual documentation, which is why standardisation committees publish comprehensive recommendations.";
    const wrapped = await paragraphLines(paragraph);
    expect(wrapped.length).toBeGreaterThan(2);
    expect(wrapped.some((l) => /[a-z]-$/.test(l)), "the layout hyphenates at least one word").toBe(true);
    const state = await extractPdf(await buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text: paragraph }] }] }));
    expect(lines(state.pages[0].text)).toContain(paragraph);
  });

  describe("page labels", () => {
    it("reports labels where they differ from the physical number and null where they are equal", async () => {
      const pageLabels = [
        { startPage: 0, style: "r" as const },
        { startPage: 2, style: "D" as const, start: 1 },
        { startPage: 5, style: "A" as const, prefix: "Appendix " },
        { startPage: 6, style: "D" as const, start: 7 },
      ];
      const count = 8;
      const bytes = await buildPdf({
        pageLabels,
        pages: Array.from({ length: count }, (_, i) => ({ blocks: [{ kind: "paragraph", text: `Body of physical page ${i + 1}.` }] })),
      });
      const state = await extractPdf(bytes);
      expect(state.pages.map((p) => p.pageLabel)).toEqual(["i", "ii", "1", "2", "3", "Appendix A", null, null]);
      // The printed footer shows the label too.
      expect(lines(state.pages[0].text).at(-1)).toBe("i");
      expect(lines(state.pages[5].text).at(-1)).toBe("Appendix A");
      expect(lines(state.pages[6].text).at(-1)).toBe("7");
    });

    it("reports no labels when every label equals its physical number", async () => {
      const bytes = await buildPdf({
        pageLabels: [{ startPage: 0, style: "D" }],
        pages: [1, 2, 3].map((n) => ({ blocks: [{ kind: "paragraph", text: `Page ${n} of a numbered handout.` }] })),
      });
      const state = await extractPdf(bytes);
      expect(state.pages.map((p) => p.pageLabel)).toEqual([null, null, null]);
    });

    it("formats every label style as a viewer does", () => {
      const ranges = [
        { startPage: 0, style: "R" as const },
        { startPage: 4, style: "a" as const },
        { startPage: 40, style: "D" as const, prefix: "S-", start: 10 },
      ];
      expect([0, 1, 2, 3].map((i) => formatPageLabel(i, ranges))).toEqual(["I", "II", "III", "IV"]);
      expect([4, 5, 29, 30, 31].map((i) => formatPageLabel(i, ranges))).toEqual(["a", "b", "z", "aa", "bb"]);
      expect(formatPageLabel(41, ranges)).toBe("S-11");
      expect(formatPageLabel(3, undefined)).toBe("4");
    });

    it("rejects label ranges the PDF format does not allow", async () => {
      const pages = [{ blocks: [{ kind: "paragraph" as const, text: "One page." }] }];
      await expect(buildPdf({ pages, pageLabels: [{ startPage: 1, style: "D" }] })).rejects.toThrow(PdfBuildError);
      await expect(buildPdf({ pages, pageLabels: [{ startPage: 0, style: "D", start: 0 }] })).rejects.toThrow(/start 0/);
    });
  });

  describe("tables", () => {
    const rows = [
      ["Component", "Weight", "Due"],
      ["Assignments", "40%", "Weekly"],
      ["Midterm exam", "20%", "Week 8"],
      ["Final exam", "30%", "Exam period"],
      ["Participation", "10%", "Every lab"],
    ];

    it("keeps the words of each table row together on one line of their own", async () => {
      const bytes = await buildPdf({
        pages: [
          {
            blocks: [
              { kind: "heading", text: "Grading" },
              { kind: "paragraph", text: "Your final grade is calculated from the components in the table below, weighted as shown." },
              { kind: "table", rows },
              { kind: "paragraph", text: "Weights are fixed for the whole term." },
            ],
          },
        ],
      });
      const text = (await extractPdf(bytes)).pages[0].text;
      for (const row of rows) expect(lines(text), row.join(" | ")).toContain(row.join(" "));
    });

    // BUG (extract.ts, layoutText): pdf.js emits whitespace-only items (" ") that span the gap between
    // two table cells. layoutText appends them to the line and extends `x1` over the gap, so the next
    // cell's gap is measured as ~0, the row is never marked `tabular`, and a row whose last cell reaches
    // within 4 font sizes of the right edge is joined to the next row with a space.
    // Actual: "Isolation level Dirty reads Non-repeatable reads Phantom reads Read uncommitted Possible Possible Possible".
    // Remove `.fails` once fixed.
    it("does not merge a full-width table row with the next row", async () => {
      const wide = [
        ["Isolation level", "Dirty reads", "Non-repeatable reads", "Phantom reads"],
        ["Read uncommitted", "Possible", "Possible", "Possible"],
        ["Read committed", "Prevented", "Possible", "Possible"],
        ["Serializable", "Prevented", "Prevented", "Prevented"],
      ];
      const bytes = await buildPdf({
        pages: [{ blocks: [{ kind: "paragraph", text: "The table lists the anomalies each isolation level allows." }, { kind: "table", rows: wide }] }],
      });
      const text = (await extractPdf(bytes)).pages[0].text;
      for (const row of wide) expect(lines(text)).toContain(row.join(" "));
    });
  });

  describe("two columns", () => {
    const left =
      "Under two-phase locking, a transaction acquires all of its locks before it releases any of them. " +
      "In the growing phase, the transaction may acquire shared locks for reading and exclusive locks for writing.";
    const left2 = "Once it releases its first lock, the transaction enters the shrinking phase and may never lock again.";
    const right =
      "Two-phase locking guarantees that every schedule it allows is conflict serializable. It does not prevent " +
      "deadlocks, so the system must detect them and abort one of the transactions involved.";
    const columns: Block = { kind: "columns", left: `${left}\n\n${left2}`, right };

    it("keeps each column's paragraphs intact and in reading order, never interleaved", async () => {
      const bytes = await buildPdf({ pages: [{ blocks: [{ kind: "heading", text: "Two-Phase Locking" }, columns] }] });
      const text = (await extractPdf(bytes)).pages[0].text;
      const paragraphs = text.split("\n\n");
      expect(paragraphs).toContain(right);
      expect(paragraphs).toContain(left2);
      expect(lines(text)).toContain(left);
      expect(text.indexOf(left)).toBeLessThan(text.indexOf(left2));
      expect(text.indexOf(left2)).toBeLessThan(text.indexOf(right));
    });

    // BUG (extract.ts, layoutText/columnRight): a line "fills its column" when it reaches the right edge
    // of the widest line starting at the same x. With a full-width paragraph above the columns, that edge
    // is the page's right margin, so no left-column line fills, and every left-column line ends with "\n":
    // each sentence is cut at every line end (and sentenceSpans splits it there). The right column is fine.
    // Remove `.fails` once fixed.
    it("keeps left-column sentences intact when a full-width paragraph is on the same page", async () => {
      const bytes = await buildPdf({
        pages: [
          {
            blocks: [
              { kind: "heading", text: "Two-Phase Locking" },
              { kind: "paragraph", text: "Locking protocols decide when a transaction may read or write a data item, and for how long it keeps its locks." },
              columns,
            ],
          },
        ],
      });
      const text = (await extractPdf(bytes)).pages[0].text;
      expect(lines(text)).toContain(right);
      expect(lines(text)).toContain(left);
    });
  });

  it("joins a description-list entry's first line with its hanging-indented continuation, and keeps entries apart", async () => {
    const entries = [
      { term: "Buffer pool", text: "The buffer pool is the region of main memory that caches disk pages, so that a page read once can be served again without another disk access." },
      { term: "Write-ahead log", text: "A write-ahead log records every change before the changed page reaches the disk, which lets recovery redo committed work after a crash." },
    ];
    const bytes = await buildPdf({
      pages: [{ blocks: [{ kind: "paragraph", text: "Two terms from the storage lecture." }, ...entries.map((e) => ({ kind: "entry" as const, ...e }))] }],
    });
    const text = (await extractPdf(bytes)).pages[0].text;
    for (const e of entries) expect(lines(text)).toContain(`${e.term} ${e.text}`);
  });

  // BUG (extract.ts, layoutText): a wrapped line of running prose that happens to end in ";" or ":" is
  // never joined with the next line (`!/[:;]$/.test(out)`), so the sentence gets a hard "\n" in the middle.
  // Remove `.fails` once fixed.
  it("joins a wrapped prose line that ends with a semicolon", async () => {
    let sentence = "";
    for (let filler = 0; filler < 40 && !sentence; filler++) {
      const candidate =
        `Late submissions lose ten percent of the ${"available ".repeat(filler)}marks for each day late, up to three days; ` +
        "after that the submission receives no credit at all.";
      const wrapped = await paragraphLines(candidate);
      if (wrapped.slice(0, -1).some((l) => l.endsWith("days;"))) sentence = candidate;
    }
    expect(sentence, "found a wording whose first line ends with the semicolon").not.toBe("");
    const state = await extractPdf(await buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text: sentence }] }] }));
    expect(lines(state.pages[0].text)).toContain(sentence);
  });
});

// ─── normalizeText ──────────────────────────────────────────────────────────────────────────

describe("normalizeText", () => {
  it.each([
    ["ligatures", "\uFB01nd the e\uFB00ect of \uFB02ow and o\uFB03ce ba\uFB04e", "find the effect of flow and office baffle"],
    ["line-end hyphenation", "the evalu-\nation of a trans-\naction", "the evaluation of a transaction"],
    ["hyphen before a capital stays", "the Smith-\nJones method", "the Smith-\nJones method"],
    ["hyphen inside a line stays", "a well-known two-phase protocol", "a well-known two-phase protocol"],
    ["soft hyphen", "trans\u00ADaction", "transaction"],
    ["no-break and thin spaces", "10\u00A0October at\u200917:00", "10 October at 17:00"],
    ["zero-width characters", "data\u200Bbase\uFEFF", "database"],
    ["control characters of unmapped glyphs", "cost O(\u0000k\u00012) per step", "cost O(k2) per step"],
    ["runs of spaces and tabs", "a  b\t\tc", "a b c"],
    ["CRLF and CR", "one\r\ntwo\rthree", "one\ntwo\nthree"],
    ["spaces around newlines", "end of line  \n  next line", "end of line\nnext line"],
    ["more than one blank line", "para one\n\n\n\npara two", "para one\n\npara two"],
    ["NFC composition", "cafe\u0301 nai\u0308ve", "caf\u00E9 na\u00EFve"],
    ["surrounding whitespace", "  \n text \n ", "text"],
  ])("%s", (_name, raw, expected) => {
    expect(normalizeText(raw)).toBe(expected);
    expect(normalizeText(expected)).toBe(expected); // idempotent
  });

  it("normalizeInline puts typed text on one line with the same rules", () => {
    expect(normalizeInline("The \uFB01nal  exam\nis on\u00A011 December.")).toBe("The final exam is on 11 December.");
  });
});

// ─── Bad input ──────────────────────────────────────────────────────────────────────────────

describe("extractPdf on bad input", () => {
  let goodPdf: Uint8Array;
  beforeAll(async () => {
    goodPdf = await buildPdf({
      pages: [1, 2, 3].map((n) => ({
        blocks: [
          { kind: "heading", text: `Handout page ${n}` },
          { kind: "paragraph", text: "A perfectly ordinary page of course material with a little text on it. ".repeat(12) },
        ],
      })),
    });
  });

  it("rejects a file that is not a PDF by its bytes, whatever its name", async () => {
    // e.g. "lecture-notes.pdf" that is really a text file or a PNG.
    await expectFailure(new TextEncoder().encode("Lecture notes, week 1\nThis is plain text."), "not_pdf", /not a PDF/);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    await expectFailure(png, "not_pdf", /not a PDF/);
    await expectFailure(new Uint8Array(0), "not_pdf", /not a PDF/);
    expect(() => sniffPdf(goodPdf)).not.toThrow();
  });

  it("rejects a truncated PDF", async () => {
    await expectFailure(truncate(goodPdf), "truncated", /truncated.*complete file/);
  });

  it("rejects a corrupt PDF that still has a header and %%EOF", async () => {
    const bad = corrupt(goodPdf);
    expect(Buffer.from(bad.subarray(0, 8)).toString("latin1")).toMatch(/^%PDF-1\.\d/);
    expect(Buffer.from(bad.subarray(-8)).toString("latin1")).toContain("%%EOF");
    expect(() => sniffPdf(bad)).not.toThrow();
    await expectFailure(bad, "corrupt", /damaged and cannot be read/);
  });

  it("names the damaged page of a PDF whose other pages are fine", async () => {
    await expectFailure(await breakPage(goodPdf, 2), "corrupt", /^Page 2 of this PDF is damaged and cannot be read/);
  });

  it("rejects a password-protected PDF", async () => {
    await expectFailure(await buildEncryptedPdf(), "encrypted", /password-protected/);
  });

  it("rejects an image-only PDF and names the pages without text", async () => {
    const e = await expectFailure(await buildImageOnlyPdf(2), "no_text", /No selectable text on pages 1–2/);
    expect(e.message).toMatch(/scanned/);
    await expectFailure(await buildImageOnlyPdf(1), "no_text", /No selectable text on page 1:/);
  });

  it("reports image-only pages of a PDF that has text elsewhere, without failing", async () => {
    const doc = await PDFDocument.load(goodPdf);
    const scans = await PDFDocument.load(await buildImageOnlyPdf(2));
    const [scan1, scan2] = await doc.copyPages(scans, [0, 1]);
    doc.insertPage(1, scan1);
    doc.addPage(scan2);
    const state = await extractPdf(await doc.save());
    expect(state.pageCount).toBe(5);
    expect(state.pagesWithoutText).toEqual([2, 5]);
    expect(state.pages[1].text).toBe("");
    expect(state.pages[0].text).toContain("Handout page 1");
  });

  it("rejects a PDF with zero pages", async () => {
    await expectFailure(buildZeroPagePdf(), "no_pages", /no pages/);
  });

  it("describes page lists the way people read them", () => {
    expect(describePages([3])).toBe("page 3");
    expect(describePages([1, 2])).toBe("pages 1–2");
    expect(describePages([2, 5, 6, 7, 9])).toBe("pages 2, 5–7, 9");
  });
});

describe("buildPdf input checks", () => {
  it("rejects characters Helvetica cannot encode, naming the character and where it is", async () => {
    const spec = { pages: [{ blocks: [{ kind: "paragraph" as const, text: "Read the notes \u{1F4DA} before class." }] }] };
    await expect(buildPdf(spec)).rejects.toThrow(/cannot encode "\u{1F4DA}" \(U\+1F4DA\) in page 1, block 1 \(paragraph\)/u);
  });

  it("replaces common non-WinAnsi characters with plain equivalents", async () => {
    const state = await extractPdf(
      await buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text: "If x \u2264 3 \u2192 the \uFB01nal answer \u2212 done." }] }] }),
    );
    expect(state.pages[0].text).toContain("If x <= 3 -> the final answer - done.");
  });

  it("refuses content that overflows its page instead of adding pages", async () => {
    const long: Block = { kind: "paragraph", text: "This sentence fills the page. ".repeat(400) };
    await expect(buildPdf({ pages: [{ blocks: [long] }] })).rejects.toThrow(/page 1 does not fit/);
  });
});

// ─── The real course-PDF corpus ─────────────────────────────────────────────────────────────

interface CorpusExpectation {
  /** Physical pages as poppler's pdfinfo reports them. */
  pages: number;
  /** Sentences (verified with `pdftotext -f N -l N`) and the one physical page each is on. */
  sentences: Array<{ page: number; text: string }>;
  /** Expected pageLabel per physical page (only the pages listed are checked); null = no label of its own. */
  labels?: Record<number, string | null>;
  pagesWithoutText: number[];
}

const CORPUS: Record<string, CorpusExpectation> = {
  "bee4750-environmental-systems-syllabus.pdf": {
    pages: 7,
    sentences: [
      { page: 1, text: "This is a 3 credit course which is required for the Environmental Engineering major, and can only be taken for a letter grade." },
      { page: 5, text: "In general, late work will be subjected to a 10% penalty per day, which can accumulate to 100% of the total grade." },
    ],
    pagesWithoutText: [],
  },
  "cs430-operating-systems-syllabus.pdf": {
    pages: 2,
    sentences: [
      { page: 1, text: "Late work will not be accepted, except by instructor discretion." },
      { page: 2, text: "Cheating on any assignment will result in failing the class." },
    ],
    pagesWithoutText: [],
  },
  "hwsec-hardware-security-lecture-notes.pdf": {
    pages: 59,
    sentences: [
      { page: 7, text: "The MSP430 architecture is part of the lower end of embedded devices, with a 16-bit Reduced Instruction Set Computer (RISC) architecture and limited computational capabilities." },
      { page: 41, text: "In the left setup, a (small) shunt resistor R1 is inserted into the ground path of the target device." },
    ],
    labels: { 1: "i", 2: "ii", 3: "iii", 4: "iv", 5: "1", 7: "3", 41: "37", 59: "55" },
    // Blank pages (verified: pdftotext prints nothing for them).
    pagesWithoutText: [2, 6, 24, 34, 56, 58],
  },
  "ml-machine-learning-lecture-notes.pdf": {
    pages: 48,
    sentences: [
      { page: 6, text: "Supervised learning problems are categorized into regression and classification problems." },
      { page: 40, text: "The k-means algorithm is the most popular and widely used algorithm for solving such a problem." },
    ],
    // The title page is labelled "1" (equal to its number, so null); the next page is labelled "1" too.
    labels: { 1: null, 2: "1", 3: "2", 6: "5", 40: "39", 48: "47" },
    pagesWithoutText: [],
  },
  "sta141b-data-science-syllabus.pdf": {
    pages: 4,
    sentences: [
      { page: 2, text: "Canvas will only be used for grading." },
      { page: 4, text: "The drop deadline is October 9th." },
    ],
    pagesWithoutText: [],
  },
};

describe("extractPdf on a page a browser printed (fixtures/browser-print.html, printed by chromium)", () => {
  const read = () => extractPdf(new Uint8Array(readFileSync(resolve(__dirname, "fixtures", "browser-print.pdf"))));

  it("keeps words with ligatures whole ('fi', 'fl', 'ff', 'ffi' drawn as one glyph)", async () => {
    const [page] = (await read()).pages;
    expect(lines(page.text)[0]).toBe("The specific storage coefficient shows how fluid flows off a field site; its effective value differs by layer.");
  });

  it("reads each table row as one line, centred cells too", async () => {
    const [page] = (await read()).pages;
    expect(lines(page.text)).toContain("3 Raku firing outdoors, weather permitting, with the kiln crew on duty Test tiles");
  });
});

describe("extractPdf on the real course-PDF corpus (../shared/corpus)", () => {
  beforeAll(requireCorpus);

  it("has an expectation for every PDF in the corpus", () => {
    const files = readdirSync(CORPUS_DIR).filter((f) => f.toLowerCase().endsWith(".pdf")).sort();
    expect(files).toEqual(Object.keys(CORPUS).sort());
  });

  describe.each(Object.entries(CORPUS))("%s", (file, expected) => {
    it("has pdfinfo's page count, pages in order", async () => {
      const state = await extractCorpus(file);
      expect(state.pageCount).toBe(expected.pages);
      expect(state.pages.map((p) => p.pdfPage)).toEqual(Array.from({ length: expected.pages }, (_, i) => i + 1));
      expect(state.pagesWithoutText).toEqual(expected.pagesWithoutText);
    });

    it("stores no control characters (a glyph mapped to U+0000 ended the page's stored text there)", async () => {
      const state = await extractCorpus(file);
      expect(state.pages.filter((p) => /[\u0000-\u0008\u000E-\u001F\u007F]/.test(p.text)).map((p) => p.pdfPage)).toEqual([]);
    });

    it.each(expected.sentences)("finds a known sentence on page $page only", async ({ page, text }) => {
      const state = await extractCorpus(file);
      expect(pagesContaining(state, text)).toEqual([page]);
    });

    it("reports printed page labels", async () => {
      const state = await extractCorpus(file);
      if (!expected.labels) {
        expect(state.pages.every((p) => p.pageLabel === null)).toBe(true);
        return;
      }
      for (const [page, label] of Object.entries(expected.labels)) {
        expect(state.pages[Number(page) - 1].pageLabel, `label of physical page ${page}`).toBe(label);
      }
    });
  });

  // BUG (extract.ts): same cause as the generated-table bug above. Poppler's `pdftotext -layout` shows
  // "Item  Percentage of grade" and "Midterm  15%" as two rows; extraction gives
  // "Item Percentage of grade Midterm 15%". Remove `.fails` once fixed.
  it("keeps the header row of the CS 430 grading table on a line of its own", async () => {
    const state = await extractCorpus("cs430-operating-systems-syllabus.pdf");
    const text = lines(state.pages[0].text);
    expect(text).toContain("Item Percentage of grade");
    expect(text).toContain("Midterm 15%");
  });
});
