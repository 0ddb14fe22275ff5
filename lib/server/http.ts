import "server-only";
import { z } from "zod";
import { isDatabaseBusy } from "@/lib/db/client";
import { AppError, isAppError } from "@/lib/errors";
import { requestHost } from "./client";
import { log } from "./log";

/** Route-handler wrapper: coded errors become their responses, bad bodies clear 400s, the rest a logged 500. */
export function handler<C>(fn: (req: Request, ctx: C) => Promise<Response>) {
  return async (req: Request, ctx: C): Promise<Response> => {
    try {
      assertSameOrigin(req);
      return await fn(req, ctx);
    } catch (e) {
      if (isAppError(e)) return e.toResponse();
      if (isDatabaseBusy(e)) {
        return new AppError("unavailable:database", "The database is busy right now. Nothing was changed; try again in a moment.").toResponse();
      }
      if (e instanceof z.ZodError) {
        const detail = e.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
        return new AppError("bad_request:request", `The request is not valid: ${detail}`).toResponse();
      }
      log("error", "unexpected_error", { error: e });
      return Response.json({ code: "internal", message: "Something went wrong on the server. Try again." }, { status: 500 });
    }
  };
}

/** Every JSON body the API takes (a question, a title, a few ids) fits in far less. */
export const MAX_JSON_BYTES = 64 * 1024;

export async function parseJson<T>(req: Request, schema: z.ZodType<T>): Promise<T> {
  const bytes = await readBody(req, MAX_JSON_BYTES, () => new AppError("payload_too_large:request", `The request body is larger than the ${MAX_JSON_BYTES / 1024} kB limit.`));
  const text = new TextDecoder().decode(bytes);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AppError("bad_request:request", "The request body is not valid JSON.");
  }
  return schema.parse(body);
}

/**
 * The body's bytes, refused with `tooLarge` as soon as they pass `limit`: a declared length is
 * checked before anything is read, and a chunked body is read only up to the limit, then
 * cancelled, so an oversized body never sits in memory whole.
 */
export async function readBody(req: Request, limit: number, tooLarge: () => AppError): Promise<Uint8Array<ArrayBuffer>> {
  if (Number(req.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    size += r.value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    parts.push(r.value);
  }
  // A fresh buffer of exactly the body (never a pooled slice once past a few kB).
  return Buffer.concat(parts) as Uint8Array<ArrayBuffer>;
}

/**
 * Cross-site request forgery guard for state-changing requests: a browser always sends Origin on
 * them, and it must be this site, as Host names it (X-Forwarded-Host only behind a trusted proxy:
 * TRUST_PROXY). (SameSite=Lax cookies already keep most forged requests out.)
 * `Origin: null` (sandboxed frames, some redirects) and an Origin that is not a URL are refused:
 * neither can be shown to be this site.
 */
function assertSameOrigin(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const origin = req.headers.get("origin");
  if (origin === null) return;
  const host = requestHost(req);
  if (!host || originHost(origin) !== host) throw new AppError("forbidden:request", "This request came from another site.");
}

function originHost(origin: string): string | null {
  try {
    return new URL(origin).host || null;
  } catch {
    return null;
  }
}
