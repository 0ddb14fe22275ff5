import { randomBytes } from "node:crypto";

/** Short, URL-safe, prefixed ids ("doc_k3j9…"): readable in traces, unguessable enough for links. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url")}`;
}

/** A course join code: 8 characters, without look-alikes (0/O, 1/I/l). */
export function newJoinCode(): string {
  const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
  return Array.from(randomBytes(8), (b) => alphabet[b % alphabet.length]).join("");
}
