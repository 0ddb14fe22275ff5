/**
 * Stored text comes from PDFium; the browser draws the page and finds the quote with pdf.js. Every
 * sentence of every page of the corpus, as stored, must be found by the viewer's matcher in
 * pdf.js's text content of that page. pdf.js runs here, in the test's own worker (its legacy
 * build patches this worker's built-ins, never the server's).
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { keyText, locateInItems } from "@/components/sources/text-match";
import { corpusPdfs } from "@/lib/pdf/corpus";
import { sentenceSpans } from "./chunk";
import { extractPdf } from "./extract";
import { answerUnits } from "./extractive/units";
import { annotate } from "./text/nlp";

/** What the viewer passes to locateInItems: the strings of pdf.js's text items, page by page. */
async function pdfjsPageStrings(bytes: Uint8Array): Promise<string[][]> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: string[][] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const content = await (await doc.getPage(n)).getTextContent();
      pages.push(content.items.flatMap((i) => ("str" in i ? [i.str] : [])));
    }
    return pages;
  } finally {
    await doc.destroy();
  }
}

/** Sentences as the chunker cuts them, those with a letter or digit (a quote of only symbols cannot be highlighted). */
const sentencesOf = (text: string) => sentenceSpans(text).map((s) => text.slice(s.start, s.end)).filter((s) => keyText(s));

describe("stored text is found on the page pdf.js draws (../shared/corpus)", () => {
  const files = corpusPdfs("the highlight test reads");
  let spanning = 0;

  it("covers the whole corpus", () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  describe.each(files.map((f) => [basename(f), f]))("%s", (_name, file) => {
    let stored: Awaited<ReturnType<typeof extractPdf>>;
    let pdfjs: string[][];
    beforeAll(async () => {
      const bytes = new Uint8Array(readFileSync(file));
      [stored, pdfjs] = await Promise.all([extractPdf(bytes), pdfjsPageStrings(bytes)]);
    });

    it("has the pages pdf.js has", () => {
      expect(stored.pageCount).toBe(pdfjs.length);
    });

    it("finds every stored sentence of every page in that page's pdf.js text", () => {
      let checked = 0;
      const missing: string[] = [];
      for (const page of stored.pages) {
        const sentences = sentencesOf(page.text);
        if (stored.pagesWithoutText.includes(page.pdfPage)) expect(sentences).toEqual([]);
        for (const sentence of sentences) {
          checked++;
          if (!locateInItems(pdfjs[page.pdfPage - 1], sentence)) missing.push(`page ${page.pdfPage}: ${sentence}`);
        }
      }
      expect(missing).toEqual([]);
      expect(checked).toBeGreaterThan(stored.pageCount - stored.pagesWithoutText.length);
    });

    it("finds every quote that spans a blank line (a lead-in with what it announces) in that page's pdf.js text", () => {
      const missing: string[] = [];
      for (const page of stored.pages) {
        for (const unit of answerUnits(annotate(page.text))) {
          const quote = page.text.slice(unit.start, unit.end);
          if (!/\n\s*\n/.test(quote)) continue;
          spanning++;
          if (!locateInItems(pdfjs[page.pdfPage - 1], quote)) missing.push(`page ${page.pdfPage}: ${quote}`);
        }
      }
      expect(missing).toEqual([]);
    });
  });

  it("checked the quotes that span a blank line (the corpus has many)", () => {
    expect(spanning).toBeGreaterThan(50);
  });
});

describe("locateInItems with a glyph the reader could not map (stored as private use, U+F000 + its code)", () => {
  it("matches it to the raw code pdf.js shows, one character", () => {
    const ranges = locateInItems(["for which ", "λ", " ", "6", "= p almost"], "for which λ \uF036= p almost");
    expect(ranges?.map((r) => r.item)).toEqual([0, 1, 3, 4]);
  });

  it("matches it to a symbol pdf.js shows, which the key skips", () => {
    expect(locateInItems(["J = ", "m∑", "i=1"], "J = \uF058m i=1")).not.toBeNull();
    expect(locateInItems(["\uF0B7 Filesystems"], "\uF088 Filesystems")).not.toBeNull();
  });

  it("never stands for two characters, nor makes a quote of nothing", () => {
    expect(locateInItems(["rate 6 = p"], "rate \uF036= p")).not.toBeNull();
    expect(locateInItems(["rate = p"], "rate \uFFFD= p")).not.toBeNull();
    expect(locateInItems(["rate 16 = p"], "rate \uF036= p")).toBeNull();
    expect(locateInItems(["anything"], "\uF036")).toBeNull();
  });
});
