/**
 * MAX_UPLOAD_BYTES honoured end to end: Next's proxy buffers at least what the upload route takes,
 * and the route refuses more with 413 and the real limit, however the body is framed. (Through a
 * real `next start`, 9, 12, 49 and 51 MB uploads: e2e/security.spec.ts.)
 */
import { beforeAll, describe, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.DATABASE_URL = `file:/tmp/upload-limit-${process.pid}-${Date.now()}/study.db`;
  process.env.MAX_UPLOAD_BYTES = String(3 * 1024 * 1024);
});

import * as documents from "@/app/api/courses/[courseId]/documents/route";
import { signUp } from "@/lib/auth/accounts";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db/client";
import { createCourse } from "@/lib/db/queries/courses";
import { env } from "@/lib/env";
import { buildPaddedPdf } from "@/lib/pdf/build";
import nextConfig from "@/next.config";
import { uploadBodyLimit } from "./upload-limit";

let cookie: string;
let slug: string;
beforeAll(async () => {
  const { db } = await getDb();
  const user = await signUp(db, { email: "big@a.test", name: "B", password: "big uploads only" });
  cookie = `${SESSION_COOKIE}=${(await createSession(db, { userId: user.id })).token}`;
  slug = (await createCourse(db, { title: "Big files", instructorId: user.id })).slug;
});

/** A multipart upload, with a declared length or (chunked) without one. */
async function upload(file: Uint8Array, { chunked = false } = {}) {
  const form = new FormData();
  form.set("file", new Blob([file as Uint8Array<ArrayBuffer>], { type: "application/pdf" }), `f-${file.length}.pdf`);
  const encoded = new Response(form);
  const headers = { cookie, "content-type": encoded.headers.get("content-type")! };
  const body = chunked ? encoded.body : new Uint8Array(await encoded.arrayBuffer());
  const init = { method: "POST", headers, body, duplex: "half" } as RequestInit;
  return documents.POST(new Request(`http://localhost/api/courses/${slug}/documents`, init), { params: Promise.resolve({ courseId: slug }) });
}

describe("the upload limit", () => {
  it("is what Next's proxy buffers, with room for the refusal", () => {
    expect(nextConfig.experimental?.proxyClientMaxBodySize).toBeGreaterThan(uploadBodyLimit(env.MAX_UPLOAD_BYTES));
  });

  it("takes a file just under the limit", async () => {
    const res = await upload(await buildPaddedPdf(env.MAX_UPLOAD_BYTES - 1024));
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(201);
  });

  it("refuses a file just over it with 413 and the real limit, declared or chunked", async () => {
    for (const chunked of [false, true]) {
      const res = await upload(await buildPaddedPdf(env.MAX_UPLOAD_BYTES + 128 * 1024), { chunked });
      expect(res.status, `chunked: ${chunked}`).toBe(413);
      expect((await res.json()).message).toBe("The file is larger than the 3 MB upload limit.");
    }
  });
});
