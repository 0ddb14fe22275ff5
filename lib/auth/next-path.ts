/** A base no real request has: only a path that resolves against it stays on this site. */
const BASE = "http://next-path.invalid";

/**
 * Where to go after signing in or up: a path on this site, or "/". The value is parsed the way a
 * browser parses it (tab and newline removed, `\` read as `/`, scheme and host case-folded) and
 * kept only when it resolves to this origin; what is returned is the parsed path, so the browser
 * never sees the raw text. A path that normalises to `//…` would be read as another host, so its
 * leading slashes collapse to one.
 */
export function safeNext(next: string | string[] | undefined): string {
  const value = Array.isArray(next) ? next[0] : next;
  if (!value) return "/";
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return "/";
  }
  if (url.origin !== BASE) return "/";
  return `${url.pathname.replace(/^\/+/, "/")}${url.search}${url.hash}`;
}
