import "server-only";
import { env } from "@/lib/env";

/**
 * What a request says about where it came from, believing proxy headers only as far as
 * TRUST_PROXY says: without a proxy in front, X-Forwarded-* is whatever the client typed.
 */
export interface ProxyTrust {
  /** Proxies in front of the app (TRUST_PROXY). */
  hops: number;
}

const configured: ProxyTrust = { hops: env.TRUST_PROXY };

/** The host the client asked for: the nearest trusted proxy's X-Forwarded-Host, else Host. */
export function requestHost(req: Request, trust: ProxyTrust = configured): string | null {
  const forwarded = trust.hops > 0 ? lastListed(req.headers.get("x-forwarded-host")) : null;
  return forwarded ?? req.headers.get("host");
}

/**
 * The client's address for per-address limits: with N trusted proxies, the Nth entry from the
 * right of X-Forwarded-For (each proxy appends the address it saw). With none, the header Next.js
 * fills in from the connection, which it leaves alone when a client sends its own: per-address
 * limits are only as good as that, so run behind a proxy that overwrites it (README "Security").
 */
export function clientAddress(req: Request, trust: ProxyTrust = configured): string {
  const list = (req.headers.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const picked = list.length === 0 ? undefined : list[Math.max(0, list.length - Math.max(1, trust.hops))];
  return picked ? picked.slice(0, 64).toLowerCase() : "unknown";
}

/** Whether cookies are marked Secure: the HTTPS setting, or a request that is itself https. */
export function servedOverHttps(req: Request): boolean {
  return env.HTTPS === "1" || new URL(req.url).protocol === "https:";
}

function lastListed(value: string | null): string | null {
  const last = value?.split(",").pop()?.trim();
  return last || null;
}
