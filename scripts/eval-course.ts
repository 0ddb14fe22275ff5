/**
 * A golden set of one course, from the app's database, through the real question path; the run is
 * stored (the Evaluation page opens it later).
 *
 *   npm run eval -- --course <slug> --set <name> [--config A.json] [--vs B.json] [--chunk-sizes 80,160,320] [--json]
 *   npm run eval -- --course <slug> --set <name> --import FILE.jsonl   (the set is created if new)
 *   npm run eval -- --course <slug> --set <name> --export FILE.jsonl   ("-" for stdout)
 *
 * A config file is a JSON object of pipeline settings (k, minScore, maxPassages, contextWindow,
 * outputReserve, safetyMargin); absent ones keep the course's defaults. `--json` prints one JSON
 * object on stdout (progress and logs go to stderr).
 */
import { readFile, writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { getDb } from "@/lib/db/client";
import { getCourseBySlug } from "@/lib/db/queries/courses";
import type { Course } from "@/lib/db/schema";
import { addGoldenQuestions, createGoldenSet, findGoldenSet, listGoldenQuestions, requireGoldenSet } from "@/lib/db/queries/golden";
import { demoCourse } from "@/lib/demo/course";
import { DEMO_GOLDEN_SET } from "@/lib/demo/golden";
import { isAppError } from "@/lib/errors";
import { runConfigSchema, type RunConfig, type SetRunReport } from "@/lib/eval/course-run";
import { GoldenFormatError, goldenJsonl, parseGoldenJsonl } from "@/lib/eval/jsonl";
import { workerDepsFromEnv } from "@/lib/ingest/deps";
import { processQueuedJobs } from "@/lib/ingest/worker";
import { ensureDemoGoldenSet, startEvalRun, type RunRequest } from "@/lib/server/evaluation";
import { logToStderr } from "@/lib/server/log";
import { seedDemoCourse } from "@/lib/server/seed";
import { fail, helpRequested } from "./cli-args";

logToStderr();

const usage = [
  "Usage: npm run eval -- --course <slug> --set <name> [--config A.json] [--vs B.json] [--chunk-sizes 80,160,320] [--json]",
  "       npm run eval -- --course <slug> --set <name> --import FILE.jsonl | --export FILE.jsonl",
].join("\n");

const { values } = parseArgs({
  options: {
    course: { type: "string" },
    set: { type: "string" },
    config: { type: "string" },
    vs: { type: "string" },
    "chunk-sizes": { type: "string" },
    json: { type: "boolean", default: false },
    import: { type: "string" },
    export: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
helpRequested(values.help, usage);
if (!values.course || !values.set) fail(usage);
if (values.vs && values["chunk-sizes"]) fail(`--vs and --chunk-sizes are separate runs; give one.\n${usage}`);
if (values.import && values.export) fail(`--import and --export are separate actions; give one.\n${usage}`);

async function readConfig(path: string | undefined): Promise<RunConfig> {
  if (!path) return {};
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (e) {
    fail(`${path}: not a readable JSON file (${(e as Error).message}).`);
  }
  const parsed = runConfigSchema.safeParse(json);
  if (!parsed.success) fail(`${path}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

const config = await readConfig(values.config);
let request: RunRequest = { kind: "single", config };
if (values.vs) request = { kind: "ab", config, vs: await readConfig(values.vs) };
if (values["chunk-sizes"]) {
  const sizes = values["chunk-sizes"].split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 20 || n > 2000)) fail(`--chunk-sizes takes whole numbers of tokens from 20 to 2000, comma-separated (got “${values["chunk-sizes"]}”).`);
  request = { kind: "chunk_sizes", config, sizes };
}

const handle = await getDb();
let course = await getCourseBySlug(handle.db, { slug: values.course });
if (!course && values.course === demoCourse.slug) {
  // A fresh database: the demo course is seeded and indexed here, as the server would at start.
  process.stderr.write(`Seeding and indexing the demo course ${demoCourse.slug}…\n`);
  await seedDemoCourse(handle);
  await processQueuedJobs(handle, workerDepsFromEnv());
  course = await getCourseBySlug(handle.db, { slug: values.course });
}
if (!course) fail(`No course “${values.course}”.`);
if (course.slug === demoCourse.slug && values.set === DEMO_GOLDEN_SET && !(await findGoldenSet(handle.db, { courseId: course.id, name: DEMO_GOLDEN_SET }))) {
  await ensureDemoGoldenSet(handle.db, course.id);
}

/** Appends a JSONL file's questions to the set (created if new): all of them or none, the first bad line named. */
async function importSet(courseId: string, setName: string, path: string) {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    fail(`${path}: not readable (${(e as Error).message}).`);
  }
  let questions;
  try {
    questions = parseGoldenJsonl(text, path);
  } catch (e) {
    if (e instanceof GoldenFormatError) fail(`Nothing was imported. ${e.message}`);
    throw e;
  }
  if (questions.length === 0) fail(`${path} holds no questions; nothing was imported.`);
  const set = (await findGoldenSet(handle.db, { courseId, name: setName })) ?? (await createGoldenSet(handle.db, { courseId, name: setName }));
  await addGoldenQuestions(handle.db, { setId: set.id, questions });
  console.log(`Imported ${questions.length} question(s) into set “${set.name}”.`);
}

async function exportSet(courseId: string, courseSlug: string, setName: string, path: string) {
  const set = await requireGoldenSet(handle.db, { courseId, name: setName });
  const jsonl = goldenJsonl((await listGoldenQuestions(handle.db, { setId: set.id, course: courseSlug })).map((q) => q.golden));
  if (path === "-") process.stdout.write(jsonl);
  else await writeFile(path, jsonl);
  if (path !== "-") console.log(`Wrote the ${jsonl.split("\n").filter(Boolean).length} question(s) of set “${set.name}” to ${path}.`);
}

const pct = (v: number | null) => (v === null ? "–" : `${(v * 100).toFixed(1)}%`);
function printReport(label: string, r: SetRunReport) {
  console.log(`\n${label}: ${r.questions.length} questions in ${r.seconds.toFixed(2)} s, generator ${r.generator}, ${JSON.stringify(r.settings)}`);
  for (const [key, value] of Object.entries(r.headline)) console.log(`  ${key.padEnd(26)} ${pct(value)}`);
  for (const [stage, l] of Object.entries(r.metrics.latency)) console.log(`  latency ${stage.padEnd(18)} mean ${l.meanMs.toFixed(1)} ms, p95 ${l.p95Ms.toFixed(1)} ms`);
}

try {
  if (values.import) await importSet(course.id, values.set, values.import);
  else if (values.export) await exportSet(course.id, course.slug, values.set, values.export);
  else await runSet(course, values.set);
} catch (e) {
  console.error(isAppError(e) ? e.message : (e as Error).message);
  process.exitCode = 1;
} finally {
  handle.client.close();
}

async function runSet(course: Course, setName: string) {
  const set = await requireGoldenSet(handle.db, { courseId: course.id, name: setName });
  const { run, done } = await startEvalRun(handle, { course, set, request, wait: false });
  let last = -1;
  const ticker = setInterval(async () => {
    const row = await handle.db.query.evalRuns.findFirst({ where: (r, { eq }) => eq(r.id, run.id) });
    if (row && row.progress !== last) process.stderr.write(`\r${row.progress}/${row.total} questions`);
    last = row?.progress ?? last;
  }, 500);
  const report = await done;
  clearInterval(ticker);
  process.stderr.write("\n");
  if (!report) {
    const row = await handle.db.query.evalRuns.findFirst({ where: (r, { eq }) => eq(r.id, run.id) });
    throw new Error(row?.error ?? "The run failed.");
  }
  const meta = { run: run.id, course: course.slug, set: set.name };
  if (report.kind === "single") {
    const [r] = report.runs;
    if (values.json) console.log(JSON.stringify({ ...r.headline, ...meta, questions: r.questions.length, seconds: r.seconds, settings: r.settings, generator: r.generator, latency: r.metrics.latency }));
    else printReport(`Set “${set.name}” of ${course.slug} (run ${run.id})`, r);
  } else if (report.kind === "ab") {
    const [a, b] = report.runs;
    const changed = report.diffs.filter((d) => d.changed);
    if (values.json) console.log(JSON.stringify({ ...meta, a: { ...a.headline, settings: a.settings }, b: { ...b.headline, settings: b.settings }, changed }));
    else {
      printReport("A", a);
      printReport("B", b);
      console.log(`\n${changed.length} question(s) changed outcome:`);
      for (const d of changed) console.log(`  ${d.id}: ${d.a.status} → ${d.b.status} (diverged at ${d.stage ?? "no stage"}) “${d.question}”`);
    }
  } else if (values.json) console.log(JSON.stringify({ ...meta, sizes: report.sizes }));
  else for (const s of report.sizes) console.log(`chunks of ${s.targetTokens} tokens (${s.chunks} chunks): ${Object.entries(s.headline).map(([k, v]) => `${k} ${pct(v)}`).join(", ")}`);
}
