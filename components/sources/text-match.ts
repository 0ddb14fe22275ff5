/**
 * Finds a quote among a PDF page's text items (pdf.js getTextContent), so it can be highlighted.
 *
 * The stored page text was normalised at ingestion (NFC, ligatures, hyphenation, whitespace), so
 * it never matches the raw items character for character. Both sides are reduced to a "key" of
 * letters and digits only, lower-cased and compatibility-decomposed, with every key character
 * remembering which item and which character it came from.
 *
 * Stored text holds a private-use character (or U+FFFD) where the server's PDF reader found a
 * glyph its font gives no character for (a TeX symbol, an icon); pdf.js may show that glyph as a
 * symbol, as nothing, or as its raw code (a letter or digit), so in a quote it matches any one key
 * character or none.
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
/** The key's mark for such a glyph in a quote. */
const UNKNOWN = "\uFFFD";
const unmappedGlyph = /[\p{Co}\uFFFD]/u;

function keyOf(strings: readonly string[], keepUnknown = false): Key {
  let text = "";
  const origin: Array<[number, number]> = [];
  strings.forEach((s, item) => {
    for (let i = 0; i < s.length; i++) {
      const code = s.codePointAt(i)!;
      const ch = String.fromCodePoint(code);
      for (const k of ch.normalize("NFKD").toLowerCase()) {
        const unknown = keepUnknown && unmappedGlyph.test(k);
        if (!keep.test(k) && !unknown) continue;
        text += unknown ? UNKNOWN : k;
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

/** Where `needle` (a quote's key, UNKNOWN matching one character or none) occurs, with the length matched. */
function occurrences(haystack: string, needle: string): Array<{ at: number; length: number }> {
  const found: Array<{ at: number; length: number }> = [];
  if (!needle.replaceAll(UNKNOWN, "")) return found;
  if (!needle.includes(UNKNOWN)) {
    for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push({ at, length: needle.length });
    return found;
  }
  const pattern = needle
    .replace(new RegExp(`^${UNKNOWN}+|${UNKNOWN}+$`, "g"), "")
    .split(UNKNOWN)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^]?");
  for (const m of haystack.matchAll(new RegExp(`(?=(${pattern}))`, "gu"))) found.push({ at: m.index, length: m[1].length });
  return found;
}

/**
 * The item ranges that make up `quote` on the page, or null when it cannot be found.
 * `context` (the passage the quote was taken from) picks the right occurrence when the quote
 * appears more than once on the page.
 */
export function locateInItems(items: readonly string[], quote: string, context?: string): ItemRange[] | null {
  const page = keyOf(items);
  const q = keyOf([quote], true).text;
  const hits = occurrences(page.text, q);
  if (hits.length === 0) return null;
  let hit = hits[0];
  if (hits.length > 1 && context) {
    const ctx = keyText(context);
    const qInCtx = ctx.indexOf(q.replaceAll(UNKNOWN, ""));
    const ctxAt = page.text.indexOf(ctx.slice(0, Math.min(ctx.length, 80)));
    if (ctxAt !== -1 && qInCtx !== -1) {
      const expected = ctxAt + qInCtx;
      hit = hits.reduce((best, h) => (Math.abs(h.at - expected) < Math.abs(best.at - expected) ? h : best), hits[0]);
    }
  }
  const ranges: ItemRange[] = [];
  for (let k = hit.at; k < hit.at + hit.length; k++) {
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
