"use client";

import { useState } from "react";

/** A form's JSON POST with its pending flag and the message to show when it fails. */
export function useJsonPost<T>(onSuccess: (data: T) => void) {
  return useJsonSteps<T>(onSuccess, (url, body) => postJson<T>(url, body));
}

/**
 * The same for a form whose submit is several requests in a row (`steps` runs them and returns the
 * last outcome, or the message of the first that failed).
 */
export function useJsonSteps<T>(onSuccess: (data: T) => void, steps: (url: string, body: unknown) => Promise<{ ok: true; data: T } | { ok: false; message: string }>) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function post(url: string, body: unknown): Promise<void> {
    setError(null);
    setPending(true);
    const result = await steps(url, body);
    setPending(false);
    if (result.ok) onSuccess(result.data);
    else setError(result.message);
  }
  return { error, pending, post };
}

/** A JSON POST from a form: the parsed body on success, or the server's message (or a network one) to show. */
export async function postJson<T>(url: string, body: unknown): Promise<{ ok: true; data: T } | { ok: false; message: string }> {
  try {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const data = (await res.json().catch(() => null)) as (T & { message?: string }) | null;
    if (!res.ok || data === null) return { ok: false, message: data?.message ?? "Something went wrong. Try again." };
    return { ok: true, data };
  } catch {
    return { ok: false, message: "The server could not be reached. Check your connection and try again." };
  }
}
