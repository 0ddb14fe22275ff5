import { randomBytes } from "node:crypto";

/**
 * Prefixed ids ("doc_3f9a…"): readable in traces, unguessable enough for links. Hex, so that an
 * id is always the same number of FTS5 tokens: the search index holds the course id, and BM25
 * counts its tokens in every row's length (base64url's "-" and "_" made rankings vary by id).
 */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

/** A course join code: 8 characters, without look-alikes (0/O, 1/I/l). */
export function newJoinCode(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from(randomBytes(8), (b) => alphabet[b % alphabet.length]).join("");
}
