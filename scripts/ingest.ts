/** npm run ingest -- --course <slug> [--title T] [--correction] [--json] FILE... */
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { getDb } from "@/lib/db/client";
import { ensureCourse } from "@/lib/db/queries/courses";
import { workerDepsFromEnv } from "@/lib/ingest/deps";
import { ingestFiles } from "@/lib/ingest/ingest-files";
import { env } from "@/lib/env";
import { fail, helpRequested } from "./cli-args";
import { logToStderr } from "@/lib/server/log";

// Stdout is the result; the worker's log lines go to stderr.
logToStderr();

const usage = "Usage: npm run ingest -- --course <slug> [--title T] [--correction] [--json] FILE...";

const { values, positionals } = parseArgs({
  options: {
    course: { type: "string" },
    title: { type: "string" },
    correction: { type: "boolean", default: false },
    json: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
  allowPositionals: true,
});

helpRequested(values.help, usage);
if (!values.course || positionals.length === 0) fail(usage);
if (values.title && positionals.length > 1) fail("--title names one document: give it with a single FILE.");

const handle = await getDb();
const course = await ensureCourse(handle.db, { slug: values.course });
const files: Array<{ name: string; bytes: Uint8Array }> = [];
const unreadable: Array<{ file: string; error: string }> = [];
for (const path of positionals) {
  try {
    files.push({ name: path, bytes: new Uint8Array(await readFile(path)) });
  } catch (e) {
    unreadable.push({ file: path, error: `Cannot read the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
  }
}

const outcomes = [
  ...unreadable.map((u) => ({ file: u.file, document: null, documentId: null, revision: null, pages: null, chunks: null, status: "rejected" as const, error: u.error, warning: null })),
  ...(await ingestFiles(handle, workerDepsFromEnv(), {
    courseId: course.id,
    files,
    title: values.title,
    isCorrection: values.correction,
    maxBytes: env.MAX_UPLOAD_BYTES,
  })),
];

for (const o of outcomes) {
  if (values.json) {
    const { documentId: _id, ...line } = o;
    console.log(JSON.stringify(line));
  } else if (o.status === "ready" || o.status === "unchanged") {
    const note = o.status === "unchanged" ? " (identical to the latest revision; nothing new was created)" : "";
    console.log(`✓ ${o.file}: “${o.document}” revision ${o.revision}, ${o.pages} pages, ${o.chunks} chunks${note}`);
    if (o.warning) console.log(`  ! ${o.warning}`);
  } else {
    console.log(`✗ ${o.file}: ${o.error}`);
  }
}
handle.client.close();
process.exit(outcomes.some((o) => o.status === "failed" || o.status === "rejected") ? 1 : 0);
