/**
 * Abbreviations a text defines, by Schwartz and Hearst's algorithm ("A Simple Algorithm for
 * Identifying Abbreviation Definitions in Biomedical Text", PSB 2003): a short form in
 * parentheses right after its long form, "Principal Component Analysis (PCA)", where the short
 * form's letters appear in order in the long form and its first letter starts a word there.
 * Course notes define a term once and use the short form after; a question may use either.
 */

/** Short form as written → its long form. */
export type Abbreviations = ReadonlyMap<string, string>;

const SHORT_FORM = /\(([^()]{2,10})\)/g;
/** Where a long form cannot reach back past: a sentence or clause boundary. */
const BOUNDARY = /[.;:!?\n]/;

const isAlnum = (c: string) => /[\p{L}\p{N}]/u.test(c);

function validShortForm(s: string): boolean {
  const words = s.trim().split(/\s+/);
  return words.length <= 2 && isAlnum(s[0]) && /\p{L}/u.test(s) && s.length >= 2 && s === s.trim();
}

/** The shortest tail of `candidate` that the short form abbreviates (Schwartz & Hearst's `findBestLongForm`), or null. */
function bestLongForm(shortForm: string, candidate: string): string | null {
  const short = shortForm.toLowerCase();
  const long = candidate.toLowerCase();
  let s = short.length - 1;
  let l = long.length - 1;
  while (s >= 0) {
    const c = short[s];
    if (!isAlnum(c)) {
      s--;
      continue;
    }
    // The first letter of the short form must start a word of the long form.
    while (l >= 0 && (long[l] !== c || (s === 0 && l > 0 && isAlnum(long[l - 1])))) l--;
    if (l < 0) return null;
    l--;
    s--;
  }
  const start = candidate.lastIndexOf(" ", l) + 1;
  return candidate.slice(start).trim();
}

/** Every "long form (SF)" definition in the text, the first definition of a short form kept. */
export function abbreviationsIn(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(SHORT_FORM)) {
    const shortForm = m[1];
    if (!validShortForm(shortForm) || out.has(shortForm)) continue;
    let before = text.slice(Math.max(0, m.index - 200), m.index);
    const cut = before.search(new RegExp(`${BOUNDARY.source}[^.;:!?\\n]*$`));
    if (cut >= 0) before = before.slice(cut + 1);
    const words = before.trim().split(/\s+/).filter(Boolean);
    const reach = Math.min(shortForm.length + 5, shortForm.length * 2);
    const candidate = words.slice(-reach).join(" ");
    const long = candidate && bestLongForm(shortForm, candidate);
    if (!long || long.length <= shortForm.length || long.split(/\s+/).length < 2) continue;
    out.set(shortForm, long);
  }
  return out;
}
