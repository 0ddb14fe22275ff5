import { describe, expect, it } from "vitest";
import { z } from "zod";
import { handler, MAX_JSON_BYTES, parseJson } from "./http";

const echo = handler(async (req) => Response.json(await parseJson(req, z.object({ q: z.string() }))));

/** A chunked body of `total` bytes (no Content-Length) that records how much of it was pulled. */
function streamed(total: number, chunk = 16 * 1024) {
  const seen = { pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled >= total) return controller.close();
      const n = Math.min(chunk, total - seen.pulled);
      seen.pulled += n;
      controller.enqueue(new Uint8Array(n).fill(0x20));
    },
  });
  return { body, seen };
}

describe("JSON bodies", () => {
  it("takes a body up to the limit", async () => {
    const q = "x".repeat(MAX_JSON_BYTES - 20);
    const res = await echo(new Request("http://app.test/api", { method: "POST", body: JSON.stringify({ q }) }), {});
    expect(res.status).toBe(200);
    expect((await res.json()).q).toHaveLength(q.length);
  });

  it("refuses a declared length over 64 kB with 413 before reading it", async () => {
    const res = await echo(new Request("http://app.test/api", { method: "POST", body: JSON.stringify({ q: "x".repeat(MAX_JSON_BYTES) }) }), {});
    expect(res.status).toBe(413);
    expect((await res.json()).message).toMatch(/larger than the 64 kB limit/);
  });

  it("stops reading a chunked 9 MB body just past the limit", async () => {
    const { body, seen } = streamed(9 * 1024 * 1024);
    const res = await echo(new Request("http://app.test/api", { method: "POST", body, duplex: "half" } as RequestInit), {});
    expect(res.status).toBe(413);
    expect(seen.pulled).toBeLessThan(MAX_JSON_BYTES + 4 * 16 * 1024);
  });

  it("still says invalid JSON is invalid", async () => {
    const res = await echo(new Request("http://app.test/api", { method: "POST", body: "{nope" }), {});
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/not valid JSON/);
  });
});
