import "server-only";
import { randomUUID } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { log } from "./log";

/** The header a request id travels in, both ways. A reverse proxy's own id (nginx `$request_id`) is kept. */
export const REQUEST_ID_HEADER = "x-request-id";
const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id this request carries: the one the request log gave it (or the proxy in front passed on). */
export function requestIdOf(req: Request): string | undefined {
  return req.headers.get(REQUEST_ID_HEADER) ?? undefined;
}

interface RoutePattern {
  page: string;
  regex: RegExp;
}

/**
 * The app's route patterns from the build's routes manifest (`.next/routes-manifest.json`, beside
 * the standalone server.js too), so a line says `/api/courses/[courseId]/chat`, never the ids or
 * query text of the URL itself.
 */
export function loadRoutePatterns(distDir = join(process.cwd(), ".next")): RoutePattern[] {
  try {
    const manifest = JSON.parse(readFileSync(join(distDir, "routes-manifest.json"), "utf8")) as {
      staticRoutes?: Array<{ page: string; regex: string }>;
      dynamicRoutes?: Array<{ page: string; regex: string }>;
    };
    return [...(manifest.staticRoutes ?? []), ...(manifest.dynamicRoutes ?? [])].map((r) => ({ page: r.page, regex: new RegExp(r.regex) }));
  } catch {
    return [];
  }
}

/** The pattern a path belongs to; paths outside the app's routes are named by their kind only. */
export function routePattern(routes: RoutePattern[], url: string): string {
  const path = url.split("?")[0];
  if (path.startsWith("/_next/static/")) return "/_next/static/*";
  if (path.startsWith("/_next/")) return "/_next/*";
  for (const r of routes) if (r.regex.test(path)) return r.page;
  return "(unmatched)";
}

const started = Symbol.for("study-assistant.request-log");

/**
 * One JSON line per request: method, route pattern, status, duration and request id, written
 * when the response closes (finished or cut off). Observed through Node's `http.server.request.start`
 * diagnostics channel, which sees every request Next.js serves (pages, API routes, assets)
 * before Next.js does: the id is set on the request, for the routes to log with, and on the
 * response. Bodies, query strings and headers are never logged.
 */
export function startRequestLog(): void {
  const g = globalThis as typeof globalThis & { [started]?: boolean };
  if (g[started]) return;
  g[started] = true;
  const routes = loadRoutePatterns();
  subscribe("http.server.request.start", (message) => {
    const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
    const incoming = request.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === "string" && VALID_ID.test(incoming) ? incoming : randomUUID();
    request.headers[REQUEST_ID_HEADER] = id;
    response.setHeader(REQUEST_ID_HEADER, id);
    const at = performance.now();
    response.once("close", () => {
      log(response.statusCode >= 500 ? "error" : "info", "request", {
        method: request.method,
        route: routePattern(routes, request.url ?? "/"),
        status: response.statusCode,
        durationMs: Math.round(performance.now() - at),
        requestId: id,
        ...(response.writableFinished ? {} : { aborted: true }),
      });
    });
  });
}
