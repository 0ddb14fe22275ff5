import "server-only";
import { z } from "zod";
import { isDatabaseBusy } from "@/lib/db/client";
import { AppError, isAppError } from "@/lib/errors";
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

export async function parseJson<T>(req: Request, schema: z.ZodType<T>): Promise<T> {
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    throw new AppError("bad_request:request", "The request body is not valid JSON.");
  }
  return schema.parse(body);
}

/**
 * Cross-site request forgery guard for state-changing requests: a browser always sends Origin on
 * them, and it must be this site. (SameSite=Lax cookies already keep most forged requests out.)
 */
function assertSameOrigin(req: Request): void {
  if (req.method === "GET" || req.method === "HEAD") return;
  const origin = req.headers.get("origin");
  if (!origin) return;
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host");
  if (!host || new URL(origin).host !== host) throw new AppError("forbidden:request", "This request came from another site.");
}
