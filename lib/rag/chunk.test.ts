import { existsSync, readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "@/lib/ai/tokenizer";
import { demoDocuments } from "@/lib/demo/course";
import { buildLargePdf, buildPdf } from "@/lib/pdf/build";
import { chunkPages, defaultChunkSettings, sentenceSpans } from "./chunk";
import { extractPdf } from "./extract";
import { CORPUS_DIR, requireCorpus as requireCorpus_ } from "@/lib/pdf/corpus";
import type { ChunkDraft, ChunkSettings, ExtractedPage } from "./types";

// ─── Helpers ────────────────────────────────────────────────────────────────────────────────

const requireCorpus = () => requireCorpus_("the chunking tests read");

const SETTINGS: ChunkSettings[] = [defaultChunkSettings, { targetTokens: 60, overlapTokens: 15 }];

const page = (pdfPage: number, text: string): ExtractedPage => ({ pdfPage, pageLabel: null, text });

const tokensOf = (text: string, s: { start: number; end: number }) => countTokens(text.slice(s.start, s.end));

/** Every word (run of non-space characters) of [start, end) of `text`, with offsets. */
function wordsIn(text: string, start: number, end: number): Array<{ start: number; end: number }> {
  return [...text.slice(start, end).matchAll(/\S+/g)].map((m) => ({ start: start + m.index!, end: start + m.index! + m[0].length }));
}

const inside = (c: ChunkDraft, s: { start: number; end: number }) => c.charStart <= s.start && s.end <= c.charEnd;

/**
 * The guarantees chunk.ts documents and implements, checked on every chunk:
 *  - a chunk is a slice of exactly one page: text === page.text.slice(charStart, charEnd);
 *  - ordinals run 0..n-1 per page, chunks advance through the page, pages without text get none;
 *  - every sentence of ≤ targetTokens lies inside one chunk; a longer sentence is cut at word
 *    boundaries and each of its words lies inside some chunk;
 *  - tokens === countTokens(text); the sentences packed into a chunk sum to ≤ targetTokens (counted one by
 *    one, as the packer counts them); a chunk of a single sentence piece has ≤ targetTokens unless it is a
 *    single word longer than that;
 *  - consecutive chunks overlap by whole trailing sentences of ≤ overlapTokens in total, and they do
 *    overlap whenever the previous chunk has several sentences and its last one fits the overlap.
 */
function checkChunks(pages: ExtractedPage[], chunks: ChunkDraft[], settings: ChunkSettings): void {
  const byPage = new Map<number, ChunkDraft[]>();
  for (const c of chunks) byPage.set(c.pdfPage, [...(byPage.get(c.pdfPage) ?? []), c]);
  expect([...byPage.keys()].every((n) => pages.some((p) => p.pdfPage === n)), "chunks only of given pages").toBe(true);
  // In page order, then ordinal order.
  const order = chunks.map((c) => [c.pdfPage, c.ordinal]);
  expect(order).toEqual([...order].sort((a, b) => a[0] - b[0] || a[1] - b[1]));

  for (const p of pages) {
    const cs = byPage.get(p.pdfPage) ?? [];
    const where = `page ${p.pdfPage}`;
    if (!/\S/.test(p.text)) {
      expect(cs, `${where} has no text, so no chunks`).toEqual([]);
      continue;
    }
    expect(cs.length, `${where} has chunks`).toBeGreaterThan(0);
    expect(cs.map((c) => c.ordinal)).toEqual(cs.map((_, i) => i));
    const spans = sentenceSpans(p.text).map((s) => ({ ...s, tokens: tokensOf(p.text, s) }));

    for (const c of cs) {
      // Never crosses a page: the chunk is one contiguous slice of this page's text.
      expect(c.charStart).toBeGreaterThanOrEqual(0);
      expect(c.charEnd).toBeLessThanOrEqual(p.text.length);
      expect(c.charStart).toBeLessThan(c.charEnd);
      expect(p.text.slice(c.charStart, c.charEnd), `${where} chunk ${c.ordinal} slice`).toBe(c.text);
      expect(c.text).toBe(c.text.trim());
      // Cut only where a sentence starts or ends, or between words (inside a long sentence).
      const startsOk = c.charStart === 0 || /\s/.test(p.text[c.charStart - 1]) || spans.some((s) => s.start === c.charStart);
      const endsOk = c.charEnd === p.text.length || /\s/.test(p.text[c.charEnd]) || spans.some((s) => s.end === c.charEnd);
      expect(startsOk, `${where} chunk ${c.ordinal} starts at a sentence or word`).toBe(true);
      expect(endsOk, `${where} chunk ${c.ordinal} ends at a sentence or word`).toBe(true);
      expect(c.tokens).toBe(countTokens(c.text));
    }
    for (let k = 1; k < cs.length; k++) {
      // Always moves forward (strictly). That each chunk also *ends* later is a separate, failing test below.
      expect(cs[k].charStart, `${where}: chunks advance`).toBeGreaterThan(cs[k - 1].charStart);
      expect(cs[k].charEnd, `${where}: chunks advance`).toBeGreaterThanOrEqual(cs[k - 1].charEnd);
    }
    for (const s of spans) {
      if (s.tokens <= settings.targetTokens) {
        expect(cs.some((c) => inside(c, s)), `${where}: sentence at ${s.start} inside one chunk`).toBe(true);
      } else {
        for (const w of wordsIn(p.text, s.start, s.end)) {
          expect(cs.some((c) => inside(c, w)), `${where}: word at ${w.start} of a long sentence is in a chunk`).toBe(true);
        }
      }
    }

    for (const c of cs) {
      const overlapping = spans.filter((s) => s.start < c.charEnd && s.end > c.charStart);
      const wholeShort = overlapping.every((s) => inside(c, s) && s.tokens <= settings.targetTokens);
      if (overlapping.length === 1 && !wholeShort) {
        // One piece of a sentence longer than the target (or the whole of it).
        const oneWord = !/\s/.test(c.text);
        expect(c.tokens <= settings.targetTokens || oneWord, `${where} chunk ${c.ordinal}: ${c.tokens} tokens`).toBe(true);
      } else if (wholeShort) {
        const packed = overlapping.reduce((n, s) => n + s.tokens, 0);
        expect(packed, `${where} chunk ${c.ordinal}: sentences packed`).toBeLessThanOrEqual(settings.targetTokens);
        if (overlapping.length === 1) expect(c.tokens).toBeLessThanOrEqual(settings.targetTokens);
      }
    }

    for (let k = 1; k < cs.length; k++) {
      const prev = cs[k - 1];
      const next = cs[k];
      const prevSpans = spans.filter((s) => inside(prev, s));
      const prevWhole = prevSpans.length > 0 && spans.filter((s) => s.start < prev.charEnd && s.end > prev.charStart).length === prevSpans.length;
      if (next.charStart < prev.charEnd) {
        // The repeated part is whole trailing sentences of the previous chunk, within the overlap budget.
        const repeated = spans.filter((s) => s.start >= next.charStart && s.end <= prev.charEnd);
        expect(repeated.length, `${where}: overlap of chunks ${k - 1}/${k} is whole sentences`).toBeGreaterThan(0);
        expect(repeated[0].start).toBe(next.charStart);
        expect(repeated.at(-1)!.end).toBe(prev.charEnd);
        expect(repeated.reduce((n, s) => n + s.tokens, 0)).toBeLessThanOrEqual(settings.overlapTokens);
      } else if (prevWhole && prevSpans.length > 1 && prevSpans.every((s) => s.tokens <= settings.targetTokens)) {
        // No overlap is only allowed when the last sentence alone is over the overlap budget, or
        // when repeating it would leave no room for the next chunk's first new sentence.
        const last = prevSpans.at(-1)!.tokens;
        const firstNew = spans.find((s) => s.start >= next.charStart)!;
        const noRoom = last + Math.min(firstNew.tokens, settings.targetTokens) > settings.targetTokens;
        expect(last > settings.overlapTokens || noRoom, `${where}: chunks ${k - 1}/${k} should overlap`).toBe(true);
      }
    }
  }
}

// ─── Synthetic pages ────────────────────────────────────────────────────────────────────────

describe("chunkPages on synthetic pages", () => {
  const settings: ChunkSettings = { targetTokens: 60, overlapTokens: 20 };
  const sentences = Array.from(
    { length: 40 },
    (_, i) => `Sentence number ${i + 1} explains one small idea about database transactions in plain words.`,
  );
  const longPage = page(1, `${sentences.slice(0, 20).join(" ")}\n\n${sentences.slice(20).join(" ")}`);

  it("splits a long page into overlapping chunks of whole sentences", () => {
    const { chunks } = chunkPages([longPage], countTokens, settings);
    expect(chunks.length).toBeGreaterThan(5);
    checkChunks([longPage], chunks, settings);
    for (let k = 1; k < chunks.length; k++) {
      expect(chunks[k].charStart, `chunks ${k - 1} and ${k} overlap`).toBeLessThan(chunks[k - 1].charEnd);
      const repeated = longPage.text.slice(chunks[k].charStart, chunks[k - 1].charEnd);
      expect(chunks[k - 1].text.endsWith(repeated)).toBe(true);
      expect(chunks[k].text.startsWith(repeated)).toBe(true);
      expect(countTokens(repeated)).toBeLessThanOrEqual(settings.overlapTokens + 1);
    }
    expect(chunks.at(-1)!.text.endsWith(sentences.at(-1)!)).toBe(true);
  });

  it("without overlap, chunks tile the page with no sentence repeated", () => {
    const { chunks } = chunkPages([longPage], countTokens, { targetTokens: 60, overlapTokens: 0 });
    for (let k = 1; k < chunks.length; k++) expect(chunks[k].charStart).toBeGreaterThan(chunks[k - 1].charEnd);
    expect(chunks.map((c) => c.text).join(" ").replace(/\s+/g, " ")).toBe(longPage.text.replace(/\s+/g, " "));
  });

  it("cuts a sentence longer than the target at word boundaries, each piece within the target", () => {
    const runOn = Array.from({ length: 300 }, (_, i) => `item${i}`).join(" ");
    const p = page(3, `Short opening sentence. ${runOn} Short closing sentence.`);
    const { chunks } = chunkPages([p], countTokens, settings);
    checkChunks([p], chunks, settings);
    expect(chunks.length).toBeGreaterThan(3);
    const pieces = chunks.filter((c) => c.text.includes("item150"));
    expect(pieces).toHaveLength(1);
    expect(pieces[0].tokens).toBeLessThanOrEqual(settings.targetTokens);
  });

  it("keeps a single word longer than the target whole, as the one allowed oversize chunk", () => {
    const blob = "ab12".repeat(400); // one "word" of ~hundreds of tokens
    const p = page(1, `Before the blob. ${blob} After the blob.`);
    const { chunks } = chunkPages([p], countTokens, settings);
    checkChunks([p], chunks, settings);
    const big = chunks.filter((c) => c.tokens > settings.targetTokens);
    expect(big.map((c) => c.text)).toEqual([blob]);
  });

  it("never puts text of two pages in one chunk, and gives empty pages no chunks", () => {
    const pages = [page(1, "The first page has one sentence."), page(2, ""), page(3, "The third page has another sentence.")];
    const { chunks } = chunkPages(pages, countTokens, settings);
    expect(chunks.map((c) => [c.pdfPage, c.text])).toEqual([
      [1, "The first page has one sentence."],
      [3, "The third page has another sentence."],
    ]);
    checkChunks(pages, chunks, settings);
  });

  it("is stable: the same input gives identical chunks", () => {
    const a = chunkPages([longPage], countTokens, settings);
    const b = chunkPages([{ ...longPage }], countTokens, { ...settings });
    expect(b).toEqual(a);
  });

  // BUG (chunk.ts, chunkPages): the chunk that starts at the overlap is built greedily from there; when
  // overlap + the next sentence exceed targetTokens, it cannot take any new sentence, so it is a strict
  // suffix of the previous chunk (same charEnd, nothing new). The step-back loop then repeats this once per
  // trailing sentence. Example (target 60, overlap 15): "First short sentence. Second short sentence. <L>"
  // with L ≤ 60 tokens but "Second short sentence." + L > 60 gives chunks [S1 S2], [S2], [L] instead of
  // [S1 S2], [L] (or [S1 S2], [S2 …] with fewer overlap). On the corpus, hwsec page 14 (target 160) yields
  // seven chunks of 1–6 private-use glyphs, each repeating the end of chunk 0. Remove `.fails` once fixed.
  it("never emits a chunk that adds no new text after the previous one", () => {
    const s1 = "First short sentence.";
    const s2 = "Second short sentence.";
    let long = "This long sentence keeps going";
    while (countTokens(`${long}.`) + countTokens(s2) <= settings.targetTokens) long += " further";
    long += ".";
    expect(countTokens(long)).toBeLessThanOrEqual(settings.targetTokens);
    expect(countTokens(long) + countTokens(s2)).toBeGreaterThan(settings.targetTokens);
    const p = page(1, `${s1} ${s2} ${long}`);
    const { chunks } = chunkPages([p], countTokens, settings);
    for (let k = 1; k < chunks.length; k++) {
      expect(chunks[k].charEnd, `chunk ${k} (${JSON.stringify(chunks[k].text)}) ends after chunk ${k - 1}`).toBeGreaterThan(chunks[k - 1].charEnd);
    }
  });

  it("ends sentences at paragraph breaks", () => {
    const text = "A heading without a full stop\n\nThe paragraph below it. Another sentence";
    expect(sentenceSpans(text).map((s) => text.slice(s.start, s.end))).toEqual([
      "A heading without a full stop",
      "The paragraph below it.",
      "Another sentence",
    ]);
  });
});

// ─── Generated PDFs ─────────────────────────────────────────────────────────────────────────

describe("chunkPages on generated PDFs", () => {
  it.each(SETTINGS)("keeps every invariant on a 12-page generated reader (target $targetTokens)", async (settings) => {
    const state = await extractPdf(await buildLargePdf(12));
    const { chunks } = chunkPages(state.pages, countTokens, settings);
    checkChunks(state.pages, chunks, settings);
    expect(new Set(chunks.map((c) => c.pdfPage)).size).toBe(12);
  });

  it.each(SETTINGS)("keeps every invariant on the demo course documents (target $targetTokens)", async (settings) => {
    for (const doc of await demoDocuments()) {
      const state = await extractPdf(doc.bytes);
      checkChunks(state.pages, chunkPages(state.pages, countTokens, settings).chunks, settings);
    }
  });

  it("is stable end to end: same spec → same bytes → same pages → same chunks", async () => {
    const spec = { title: "Stable", pages: [{ blocks: [{ kind: "paragraph" as const, text: "Determinism matters for tests. ".repeat(30) }] }] };
    const [a, b] = [await buildPdf(spec), await buildPdf(spec)];
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const [sa, sb] = [await extractPdf(a), await extractPdf(b)];
    expect(sb).toEqual(sa);
    expect(chunkPages(sb.pages, countTokens)).toEqual(chunkPages(sa.pages, countTokens));
  });
});

// ─── The real course-PDF corpus ─────────────────────────────────────────────────────────────

describe("chunkPages on the real course-PDF corpus (../shared/corpus)", () => {
  beforeAll(requireCorpus);

  const files = existsSync(CORPUS_DIR) ? readdirSync(CORPUS_DIR).filter((f) => f.toLowerCase().endsWith(".pdf")).sort() : [];

  it("finds the corpus PDFs", () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  describe.each(files)("%s", (file) => {
    let pages: ExtractedPage[];
    beforeAll(async () => {
      pages = (await extractPdf(new Uint8Array(readFileSync(resolve(CORPUS_DIR, file))))).pages;
    });

    it.each(SETTINGS)("keeps every invariant (target $targetTokens, overlap $overlapTokens)", (settings) => {
      const first = chunkPages(pages, countTokens, settings);
      checkChunks(pages, first.chunks, settings);
      expect(first.settings).toEqual(settings);
      // Stable: chunking the same pages again gives identical output.
      expect(chunkPages(pages.map((p) => ({ ...p })), countTokens, settings)).toEqual(first);
    });
  });
});
