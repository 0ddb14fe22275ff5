import { NextResponse, type NextRequest } from "next/server";
import { env } from "./lib/env";

/**
 * Security headers on every response, with a per-request nonce for the Content-Security-Policy:
 * Next.js streams inline scripts for hydration, and the nonce lets exactly those run (Next reads
 * it from the request's CSP header and puts it on its own scripts). Nothing loads from other
 * origins: no CDN, no fonts, no analytics.
 */
export function proxy(request: NextRequest) {
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const dev = env.NODE_ENV === "development";
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // React style attributes (progress bars, PDF highlight boxes) cannot carry a nonce.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", csp);
  response.headers.set("x-content-type-options", "nosniff");
  response.headers.set("x-frame-options", "DENY");
  response.headers.set("referrer-policy", "strict-origin-when-cross-origin");
  response.headers.set("permissions-policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()");
  response.headers.set("cross-origin-opener-policy", "same-origin");
  // Only when the site is known to be https (HTTPS=1): over plain http a browser ignores HSTS, and
  // pinning https on a host that does not serve it would lock its users out for a year.
  if (env.HTTPS === "1") response.headers.set("strict-transport-security", "max-age=31536000");
  return response;
}

export const config = {
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico).*)" }],
};
