/** One PDF per request over XMLHttpRequest, because fetch cannot report upload progress. */

export type UploadOutcome =
  | { kind: "created"; documentId: string; documentTitle: string; revisionId: string; revision: number }
  | { kind: "unchanged"; documentId: string; documentTitle: string; revisionId: string; revision: number; message: string }
  | { kind: "rejected"; status: number; message: string };

export interface UploadRequest {
  url: string;
  file: File;
  documentId?: string;
  /** Called with the fraction of bytes sent, 0..1. */
  onProgress: (fraction: number) => void;
  signal?: AbortSignal;
}

export function sendUpload({ url, file, documentId, onProgress, signal }: UploadRequest): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const form = new FormData();
    form.append("file", file, file.name);
    if (documentId) form.append("documentId", documentId);

    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "text";
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.min(1, e.loaded / e.total));
    };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => resolve(readResponse(xhr.status, xhr.responseText, file.name));
    xhr.onerror = () =>
      resolve({ kind: "rejected", status: 0, message: "The upload did not reach the server. Check your connection and try again." });
    xhr.ontimeout = () => resolve({ kind: "rejected", status: 0, message: "The upload timed out. Try again." });
    xhr.onabort = () => resolve({ kind: "rejected", status: 0, message: "The upload was cancelled." });
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

function readResponse(status: number, text: string, fileName: string): UploadOutcome {
  let body: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === "object") body = parsed as Record<string, unknown>;
  } catch {
    body = null;
  }
  const message = typeof body?.message === "string" && body.message ? body.message : null;
  if (status >= 200 && status < 300 && body && (body.kind === "created" || body.kind === "unchanged")) {
    const common = {
      documentId: String(body.documentId),
      documentTitle: String(body.documentTitle),
      revisionId: String(body.revisionId),
      revision: Number(body.revision),
    };
    if (body.kind === "created") return { kind: "created", ...common };
    return {
      kind: "unchanged",
      ...common,
      message: message ?? `“${fileName}” is identical to revision ${common.revision}; nothing new was created.`,
    };
  }
  return { kind: "rejected", status, message: message ?? fallbackMessage(status) };
}

function fallbackMessage(status: number): string {
  if (status === 413) return "The file is larger than the upload limit.";
  if (status === 415) return "This file is not a PDF.";
  if (status === 404) return "This course or document no longer exists.";
  if (status >= 500) return "The server could not accept the file. Try again in a moment.";
  return `The upload was refused (HTTP ${status}).`;
}
