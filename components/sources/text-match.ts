/**
 * Finds a quote among a PDF page's text items (pdf.js getTextContent), so it can be highlighted.
 *
 * The stored page text was normalised at ingestion (NFC, ligatures, hyphenation, whitespace), so
 * it never matches the raw items character for character. Both sides are reduced to a "key" of
 * letters and digits only, lower-cased and compatibility-decomposed, with every key character
 * remembering which item and which character it came from.
 */

export interface ItemRange {
  /** Index into the items array. */
  item: number;
  /** Character offsets inside items[item] (end exclusive). */
  start: number;
  end: number;
}

interface Key {
  text: string;
  /** For each key character: [item index, character offset in the item]. */
  origin: Array<[number, number]>;
}

const keep = /[\p{L}\p{N}]/u;

function keyOf(strings: readonly string[]): Key {
  let text = "";
  const origin: Array<[number, number]> = [];
  strings.forEach((s, item) => {
    for (let i = 0; i < s.length; i++) {
      const code = s.codePointAt(i)!;
      const ch = String.fromCodePoint(code);
      for (const k of ch.normalize("NFKD").toLowerCase()) {
        if (!keep.test(k)) continue;
        text += k;
        origin.push([item, i]);
      }
      if (code > 0xffff) i++; // the second half of a surrogate pair
    }
  });
  return { text, origin };
}

export function keyText(s: string): string {
  return keyOf([s]).text;
}

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  if (!needle) return found;
  let at = haystack.indexOf(needle);
  while (at !== -1) {
    found.push(at);
    at = haystack.indexOf(needle, at + 1);
  }
  return found;
}

/**
 * The item ranges that make up `quote` on the page, or null when it cannot be found.
 * `context` (the passage the quote was taken from) picks the right occurrence when the quote
 * appears more than once on the page.
 */
export function locateInItems(items: readonly string[], quote: string, context?: string): ItemRange[] | null {
  const page = keyOf(items);
  const q = keyText(quote);
  const hits = occurrences(page.text, q);
  if (hits.length === 0) return null;
  let at = hits[0];
  if (hits.length > 1 && context) {
    const ctx = keyText(context);
    const qInCtx = ctx.indexOf(q);
    const ctxAt = page.text.indexOf(ctx.slice(0, Math.min(ctx.length, 80)));
    if (ctxAt !== -1 && qInCtx !== -1) {
      const expected = ctxAt + qInCtx;
      at = hits.reduce((best, h) => (Math.abs(h - expected) < Math.abs(best - expected) ? h : best), hits[0]);
    }
  }
  const ranges: ItemRange[] = [];
  for (let k = at; k < at + q.length; k++) {
    const [item, offset] = page.origin[k];
    const last = ranges[ranges.length - 1];
    if (last && last.item === item) last.end = offset + 1;
    else ranges.push({ item, start: offset, end: offset + 1 });
  }
  // The key skips punctuation: carry the quote's closing punctuation (".", ")") into the last range.
  const trailing = quote.trim().match(/[^\p{L}\p{N}\s]+$/u)?.[0].length ?? 0;
  const last = ranges[ranges.length - 1];
  const s = items[last.item];
  for (let n = 0; n < trailing && last.end < s.length && /[^\p{L}\p{N}\s]/u.test(s[last.end]); n++) last.end++;
  return ranges;
}
