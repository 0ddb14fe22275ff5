/**
 * Faults a running server meets: another process holding the database lock. The request waits
 * for the busy timeout (SQLite's own retries), then fails with a clear 503 and changes nothing.
 */
import { spawn } from "node:child_process";
import { beforeAll, expect, it, vi } from "vitest";

vi.hoisted(() => {
  process.env.DATABASE_URL = `file:/tmp/faults-${process.pid}-${Date.now()}/study.db`;
  process.env.DATABASE_BUSY_TIMEOUT_MS = "300";
  process.env.INGEST_WORKER = "0";
});

import * as documents from "./courses/[courseId]/documents/route";
import { signUp } from "@/lib/auth/accounts";
import { createSession, SESSION_COOKIE } from "@/lib/auth/sessions";
import { getDb } from "@/lib/db/client";
import { createCourse } from "@/lib/db/queries/courses";
import { getDocumentsWithRevisions } from "@/lib/db/queries/documents";
import { env } from "@/lib/env";
import { buildPdf } from "@/lib/pdf/build";

let cookie: string;
let slug: string;
let courseId: string;

beforeAll(async () => {
  const { db } = await getDb();
  const user = await signUp(db, { email: "busy@a.test", name: "B", password: "password-b" });
  cookie = `${SESSION_COOKIE}=${(await createSession(db, { userId: user.id })).token}`;
  const course = await createCourse(db, { title: "Busy course", instructorId: user.id });
  slug = course.slug;
  courseId = course.id;
});

/** Another process takes the write lock and keeps it until told to stop. */
async function holdLock(): Promise<() => Promise<void>> {
  const script = `
    const { createClient } = require("@libsql/client");
    const c = createClient({ url: process.argv[1] });
    c.transaction("write").then(async (tx) => {
      await tx.execute("INSERT INTO courses (id, slug, title, join_code) VALUES ('lock', 'lock', 'lock', 'LOCKLOCK')");
      process.stdout.write("locked\\n");
      process.stdin.once("data", async () => { await tx.rollback(); process.exit(0); });
    });`;
  const child = spawn(process.execPath, ["-e", script, env.DATABASE_URL], { stdio: ["pipe", "pipe", "inherit"] });
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  return async () => {
    child.stdin.write("go\n");
    await new Promise((r) => child.on("exit", r));
  };
}

it("answers 503 with a clear message while the database is locked, and loses nothing", async () => {
  const release = await holdLock();
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(await buildPdf({ pages: [{ blocks: [{ kind: "paragraph", text: "Locked out." }] }] }))]), "locked.pdf");
  const res = await documents.POST(
    new Request(`http://localhost/api/courses/${slug}/documents`, { method: "POST", body: form, headers: { cookie } }),
    { params: Promise.resolve({ courseId: slug }) },
  );
  await release();
  expect(res.status).toBe(503);
  expect((await res.json()).message).toMatch(/database is busy.*try again/i);
  const { db } = await getDb();
  expect(await getDocumentsWithRevisions(db, { courseId })).toEqual([]);

  // Once the lock is gone the same upload goes through.
  const retry = new FormData();
  retry.set("file", form.get("file") as Blob, "locked.pdf");
  const ok = await documents.POST(new Request(`http://localhost/api/courses/${slug}/documents`, { method: "POST", body: retry, headers: { cookie } }), {
    params: Promise.resolve({ courseId: slug }),
  });
  expect(ok.status, JSON.stringify(await ok.clone().json())).toBe(201);
});
