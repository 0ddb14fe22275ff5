import type { ChunkDraft, ChunkSettings, ChunkState, CountTokens, ExtractedPage } from "./types";

export const defaultChunkSettings: ChunkSettings = { targetTokens: 160, overlapTokens: 32 };

interface Span {
  start: number;
  end: number;
  tokens: number;
}

const segmenter = new Intl.Segmenter("en", { granularity: "sentence" });

/** Sentence spans of a page, trimmed, with their offsets into the page text. Paragraph breaks always end a sentence. */
export function sentenceSpans(text: string): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  for (const { segment, index } of segmenter.segment(text)) {
    // ICU does not always break at a blank line (e.g. after "design.\n\nThe final…"): force it.
    let from = 0;
    for (const m of segment.matchAll(/\n[ \t]*\n/g)) {
      push(index + from, index + m.index!);
      from = m.index! + m[0].length;
    }
    push(index + from, index + segment.length);
  }
  return spans;

  function push(start: number, end: number) {
    while (start < end && /\s/.test(text[start])) start++;
    while (end > start && /\s/.test(text[end - 1])) end--;
    if (end > start) spans.push({ start, end });
  }
}

/**
 * chunk: pages → passages of about `targetTokens`, built from whole sentences with about
 * `overlapTokens` of trailing sentences repeated at the start of the next chunk.
 * Never crosses a page; text === page.text.slice(charStart, charEnd); every sentence is in some chunk.
 */
export function chunkPages(pages: ExtractedPage[], countTokens: CountTokens, settings: ChunkSettings = defaultChunkSettings): ChunkState {
  return { chunks: pages.flatMap((page) => chunkPage(page, countTokens, settings)), settings };
}

/** One page's chunks: they depend on no other page, so a page can be chunked as soon as it is read. */
export function chunkPage(page: Pick<ExtractedPage, "pdfPage" | "text">, countTokens: CountTokens, settings: ChunkSettings): ChunkDraft[] {
  const chunks: ChunkDraft[] = [];
  const spans = splitLong(
    sentenceSpans(page.text).map((s) => ({ ...s, tokens: countTokens(page.text.slice(s.start, s.end)) })),
    page.text,
    countTokens,
    settings.targetTokens,
  );
  let ordinal = 0;
  let i = 0;
  while (i < spans.length) {
    let j = i;
    let tokens = spans[i].tokens;
    while (j + 1 < spans.length && tokens + spans[j + 1].tokens <= settings.targetTokens) tokens += spans[++j].tokens;
    const charStart = spans[i].start;
    const charEnd = spans[j].end;
    const text = page.text.slice(charStart, charEnd);
    chunks.push({ pdfPage: page.pdfPage, ordinal: ordinal++, text, charStart, charEnd, tokens: countTokens(text) });
    if (j === spans.length - 1) break;
    // Step back over trailing sentences that fit the overlap, but only as far as still leaves
    // room for the next new sentence: a chunk must always add text the previous one lacked.
    let next = j + 1;
    let overlap = 0;
    const room = settings.targetTokens - spans[j + 1].tokens;
    while (next - 1 > i && overlap + spans[next - 1].tokens <= Math.min(settings.overlapTokens, room)) overlap += spans[--next].tokens;
    i = next;
  }
  return chunks;
}

/** A sentence longer than the target (a table, a run-on list) is cut at word boundaries. */
function splitLong(spans: Span[], text: string, countTokens: CountTokens, target: number): Span[] {
  const out: Span[] = [];
  for (const span of spans) {
    if (span.tokens <= target) {
      out.push(span);
      continue;
    }
    const words = [...text.slice(span.start, span.end).matchAll(/\S+/g)];
    let from = 0;
    while (from < words.length) {
      // Grow a window word by word; estimate first, then confirm with the tokenizer.
      let to = from;
      let tokens = 0;
      while (to < words.length) {
        const s = span.start + words[from].index!;
        const e = span.start + words[to].index! + words[to][0].length;
        const t = countTokens(text.slice(s, e));
        if (t > target && to > from) break;
        tokens = t;
        to++;
      }
      const start = span.start + words[from].index!;
      const last = words[to - 1];
      out.push({ start, end: span.start + last.index! + last[0].length, tokens });
      from = to;
    }
  }
  return out;
}
