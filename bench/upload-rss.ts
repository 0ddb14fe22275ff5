/**
 * npm run bench -- upload-rss [--build]: the production server's memory around one large upload.
 *
 * server.mjs (`npm start`'s server) serves a temporary database with the demo course, which the server's own worker
 * indexes at start. Once that is done and the server has been idle past the reader threads'
 * idle time, its RSS (the whole process tree) is the baseline. The demo instructor then uploads
 * the generated 500-page PDF over HTTP, the server's worker indexes it, and the server is left
 * idle for a minute: its RSS must be back within 50 MB of the baseline.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureBuild, HOST, mb, productionEnv, rssSampler, Server, sleep, waitForDemo } from "./http";
import { openDb, prepareDb } from "@/lib/db/client";
import { getCourseBySlug } from "@/lib/db/queries/courses";
import { demoCourse } from "@/lib/demo/course";
import { buildLargePdf } from "@/lib/pdf/build";
import { READER_IDLE_MS } from "@/lib/rag/pdf-threads";
import { DEMO_ACCOUNTS, seedDemoCourse } from "@/lib/server/seed";

const IDLE_MS = 60_000;
const BACK_WITHIN_MB = 50;

export async function benchUploadRss({ build }: { build: boolean }): Promise<void> {
  const root = process.cwd();
  const dir = mkdtempSync(join(tmpdir(), "bench-upload-rss-"));
  const url = `file:${join(dir, "bench.db")}`;
  const serverEnv = productionEnv(url);
  console.log("\n## Server memory around a 500-page upload\n");
  await ensureBuild(root, build, serverEnv, join(dir, "build.log"));
  const handle = openDb(url);
  let courseId: string;
  try {
    await prepareDb(handle);
    await seedDemoCourse(handle);
    courseId = (await getCourseBySlug(handle.db, { slug: demoCourse.slug }))!.id;
  } finally {
    handle.client.close();
  }
  const pdf = join(dir, "generated-500-pages.pdf");
  writeFileSync(pdf, await buildLargePdf(500));

  const server = await Server.start(root, serverEnv, join(dir, "server.log"));
  try {
    const base = `http://${HOST}:${server.port}`;
    const signIn = await fetch(`${base}/api/auth/sign-in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(DEMO_ACCOUNTS.instructor) });
    const cookie = signIn.headers.get("set-cookie")?.split(";")[0];
    if (signIn.status !== 200 || !cookie) throw new Error(`sign-in: HTTP ${signIn.status}`);
    const course = { name: "demo", id: courseId, joinCode: "", questions: [] };
    await waitForDemo(server.port, course, cookie);
    const rss = rssSampler(server.child.pid!);
    // Past the reader threads' idle time, the demo course's readers have gone too.
    await sleep(READER_IDLE_MS + 5_000);
    const before = rss.read().last;
    console.log(`demo course indexed, then idle ${(READER_IDLE_MS + 5_000) / 1000} s: server RSS ${mb(before)} MB`);

    rss.reset();
    const t0 = performance.now();
    const form = new FormData();
    form.append("file", new Blob([readFileSync(pdf)], { type: "application/pdf" }), "generated-500-pages.pdf");
    const upload = await fetch(`${base}/api/courses/${courseId}/documents`, { method: "POST", headers: { cookie }, body: form });
    if (upload.status >= 300) throw new Error(`upload: HTTP ${upload.status} ${(await upload.text()).slice(0, 200)}`);
    await waitForDemo(server.port, course, cookie);
    const peak = rss.read().peak;
    console.log(`500-page PDF uploaded and indexed in ${((performance.now() - t0) / 1000).toFixed(1)} s: server RSS peak ${mb(peak)} MB`);

    for (let waited = 0; waited < IDLE_MS; waited += 15_000) {
      await sleep(15_000);
      console.log(`  idle ${(waited + 15_000) / 1000} s: ${mb(rss.read().last)} MB`);
    }
    const after = rss.read().last;
    rss.stop();
    const delta = (after - before) / 2 ** 20;
    console.log(`upload-rss: before ${mb(before)} MB, peak ${mb(peak)} MB, after an idle minute ${mb(after)} MB (${delta >= 0 ? "+" : ""}${delta.toFixed(0)} MB; target within ${BACK_WITHIN_MB} MB)`);
  } finally {
    await server.stop();
  }
}
