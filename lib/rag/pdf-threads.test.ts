import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { buildHeavyPagePdf, buildLargePdf, corrupt, largePdfPageFact } from "@/lib/pdf/build";
import { ExtractError, extractPdf } from "./extract";
import { READER_IDLE_MS, readerThreadCount, readPdfText } from "./pdf-threads";

describe("reading PDFs on reader threads", () => {
  let reader60: Uint8Array;
  beforeAll(async () => {
    reader60 = await buildLargePdf(60);
  });

  it("leaves the caller's built-ins alone (pdf.js's legacy polyfills stay in the reader thread)", async () => {
    const push = Array.prototype.push;
    const stringify = JSON.stringify;
    const parse = JSON.parse;
    const hadSelf = "self" in globalThis;
    await extractPdf(reader60);
    expect(Array.prototype.push).toBe(push);
    expect(JSON.stringify).toBe(stringify);
    expect(JSON.parse).toBe(parse);
    expect("self" in globalThis).toBe(hadSelf);
  });

  it("gives the same pages, in order, on three threads as on one, and counts progress to the total", async () => {
    const progress: Array<[number, number]> = [];
    const one = await extractPdf(reader60, { threads: 1 });
    const three = await extractPdf(reader60, { threads: 3, onPage: (done, total) => progress.push([done, total]) });
    expect(three).toEqual(one);
    expect(three.pages.map((p) => p.pdfPage)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    for (const n of [1, 2, 3, 31, 59, 60]) expect(three.pages[n - 1].text).toContain(largePdfPageFact(n));
    expect(progress.map(([done]) => done)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(progress.every(([, total]) => total === 60)).toBe(true);
  });

  it("keeps documents read at the same time apart", async () => {
    const reader30 = await buildLargePdf(30);
    const [a, b, c] = await Promise.all([extractPdf(reader60, { threads: 2 }), extractPdf(reader30, { threads: 2 }), extractPdf(reader60, { threads: 1 })]);
    expect(a.pageCount).toBe(60);
    expect(b.pageCount).toBe(30);
    expect(b.pages[29].text).toContain(largePdfPageFact(30));
    expect(c).toEqual(a);
  });

  it("reports a damaged file as a PdfReadError and goes on reading the next one", async () => {
    await expect(readPdfText(corrupt(reader60))).rejects.toMatchObject({ name: "PdfReadError" });
    const text = await readPdfText(reader60, { threads: 2 });
    expect(text.numPages).toBe(60);
    expect(text.pages.every((items) => items.length > 0)).toBe(true);
  });

  it("fails a document that needs more than the reader's memory budget, ends only that thread, and reads the next", async () => {
    // About 6 MB of content stream in a 16 kB file: PDFium needs well over 32 MB for it and far under 1024.
    const heavy = await buildHeavyPagePdf(200_000);
    await expect(extractPdf(heavy, { threads: 1 })).resolves.toMatchObject({ pageCount: 1 });
    const error = await extractPdf(heavy, { threads: 1, budget: { heapMb: 32 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExtractError);
    expect(error).toMatchObject({ failure: "over_memory", message: expect.stringContaining("memory budget (32 MB)") });
    const next = await extractPdf(reader60, { threads: 1, budget: { heapMb: 32 } });
    expect(next.pages[59].text).toContain(largePdfPageFact(60));
  });

  describe("idle readers", () => {
    afterEach(() => vi.useRealTimers());

    it("let their threads go after a minute without work, and new ones start for the next document", async () => {
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
      // Three threads: every reader an earlier test started is given an idle timer under the fake clock.
      await extractPdf(reader60, { threads: 3 });
      expect(readerThreadCount()).toBe(3);
      vi.advanceTimersByTime(READER_IDLE_MS - 1000);
      expect(readerThreadCount()).toBe(3);
      vi.advanceTimersByTime(1000);
      expect(readerThreadCount()).toBe(0);
      vi.useRealTimers();
      const again = await extractPdf(reader60, { threads: 2 });
      expect(again.pages[59].text).toContain(largePdfPageFact(60));
      expect(readerThreadCount()).toBe(2);
    });
  });
});
