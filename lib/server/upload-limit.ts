/**
 * MAX_UPLOAD_BYTES, end to end. It is the file's limit; the request around it carries multipart
 * framing and a few fields. Next.js's proxy (proxy.ts matches /api) buffers every request body up
 * to its own limit (10 MB unless `proxyClientMaxBodySize` says otherwise) and silently cuts the
 * rest, which made a 12 MB upload arrive as broken multipart: next.config.ts sets that limit from
 * this module, above the route's, so the route always sees enough of an oversized body to refuse
 * it with 413 and the real limit. Not server-only: next.config.ts imports it.
 */
const MULTIPART_SLACK = 64 * 1024;
/** More than one chunk of a body, so what the proxy cuts is always over the route's limit. */
const PROXY_MARGIN = 1024 * 1024;

/** The most bytes an upload request may carry: the file plus its multipart framing. */
export function uploadBodyLimit(maxUploadBytes: number): number {
  return maxUploadBytes + MULTIPART_SLACK;
}

/** What the proxy buffers of any request body (experimental.proxyClientMaxBodySize). */
export function proxyBodyLimit(maxUploadBytes: number): number {
  return uploadBodyLimit(maxUploadBytes) + PROXY_MARGIN;
}

export function tooLargeMessage(maxUploadBytes: number): string {
  return `The file is larger than the ${formatLimit(maxUploadBytes)} upload limit.`;
}

function formatLimit(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return mb >= 1 ? `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`;
}
