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
