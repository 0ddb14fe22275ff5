const LIGATURES: Record<string, string> = {
  "\uFB00": "ff",
  "\uFB01": "fi",
  "\uFB02": "fl",
  "\uFB03": "ffi",
  "\uFB04": "ffl",
  "\uFB05": "st",
  "\uFB06": "st",
};

/**
 * The single normalisation of extracted text: whatever it returns is what is stored,
 * indexed, sent to the generator and validated against. Idempotent.
 */
export function normalizeText(raw: string): string {
  return (
    raw
      .normalize("NFC")
      .replace(/[\uFB00-\uFB06]/g, (c) => LIGATURES[c] ?? c)
      .replace(/\u00AD/g, "") // soft hyphen
      .replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000\t\f\v]/g, " ")
      .replace(/[\u200B\u200C\u200D\uFEFF]/g, "")
      // A glyph the font maps to no character comes out as U+0000, and SQLite's text ends at the first one: the rest of the page was lost.
      .replace(/[\u0000-\u0008\u000E-\u001F\u007F]/g, "")
      .replace(/\r\n?/g, "\n")
      // A word broken at a line end ("evalu-\nation") is one word again.
      .replace(/(\p{Ll})-\n(\p{Ll})/gu, "$1$2")
      .replace(/ {2,}/g, " ")
      .replace(/ *\n */g, "\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}

/** Normalisation for text typed by people (questions, quotes): same rules, one line. */
export function normalizeInline(raw: string): string {
  return normalizeText(raw).replace(/\s+/g, " ");
}
