/**
 * Coded failures (`type:surface`). Abstentions are results with a status, never errors:
 * these are for things that actually went wrong or were asked wrongly.
 */
export type ErrorType =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media"
  | "rate_limit"
  | "unavailable";

export type Surface = "course" | "document" | "revision" | "upload" | "pdf" | "database" | "request" | "job" | "auth" | "conversation" | "trace" | "chat" | "answers" | "deck" | "card" | "golden_set" | "eval_run";

export type ErrorCode = `${ErrorType}:${Surface}`;

const statusByType: Record<ErrorType, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media: 415,
  rate_limit: 429,
  unavailable: 503,
};

export class AppError extends Error {
  readonly type: ErrorType;
  readonly surface: Surface;
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    /** Seconds after which the same request may succeed (sent as Retry-After). */
    readonly retryAfter?: number,
  ) {
    const [type, surface] = code.split(":") as [ErrorType, Surface];
    super(message ?? defaultMessage(type, surface));
    this.name = "AppError";
    this.type = type;
    this.surface = surface;
    this.statusCode = statusByType[type];
  }

  toResponse(): Response {
    const headers = this.retryAfter === undefined ? undefined : { "retry-after": String(this.retryAfter) };
    return Response.json({ code: this.code, message: this.message, ...(this.retryAfter === undefined ? {} : { retryAfter: this.retryAfter }) }, { status: this.statusCode, headers });
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

function defaultMessage(type: ErrorType, surface: Surface): string {
  if (type === "not_found") return `The ${surface} was not found.`;
  if (type === "unavailable") return `The ${surface} is unavailable right now. Try again in a moment.`;
  return `The request could not be processed (${type}).`;
}
