/**
 * npm run bench — measured figures, printed as ratios against a reference run in the same
 * process. Ingestion: pages/s of extract + chunk + index against poppler's pdftotext on the
 * same files. Question path: latency percentiles of retrieve → decide on large courses.
 *
 *   npm run bench [-- ingest | retrieval | ask [--chunks 10000,1000000] | study | squad | http [--build] | upload-rss [--build]]
 */
import { parseArgs } from "node:util";
import { fail } from "../scripts/cli-args";
import { logToStderr } from "@/lib/server/log";

// Stdout is the result; the worker's log lines go to stderr.
logToStderr();

const { values, positionals } = parseArgs({ allowPositionals: true, options: { chunks: { type: "string" }, build: { type: "boolean", default: false } } });
const only = positionals[0];
const sizes = values.chunks?.split(",").map(Number);
if (sizes && !sizes.every((n) => Number.isInteger(n) && n >= 1)) fail(`--chunks takes course sizes in chunks, comma-separated (got “${values.chunks}”).`);

// Each benchmark is imported when it runs: the ingestion figures include the process's peak RSS,
// which must not count modules only the other benchmarks load.
if (!only || only === "ingest") await (await import("./ingestion")).benchIngestion();
if (!only || only === "retrieval") await (await import("./retrieval")).benchRetrieval();
if (!only || only === "ask") {
  const { benchQuestions, DEFAULT_COURSE_SIZES } = await import("./questions");
  await benchQuestions(sizes ?? DEFAULT_COURSE_SIZES);
}
if (!only || only === "study") await (await import("./study")).benchStudy();
// Opt-in only (`npm run bench -- squad`): it ingests three articles and asks 836 SQuAD 2.0 questions (about 10 s with the
// extractive answerer when written), kept out of the default run while the answerer is being rewritten.
if (only === "squad") await (await import("./squad")).benchSquad();
// Opt-in only: it builds the app when no build exists, starts it and loads it for several minutes.
if (only === "http") await (await import("./http")).benchHttp({ build: values.build });
// Opt-in only: the production server's RSS before a 500-page upload and after an idle minute (over two minutes).
if (only === "upload-rss") await (await import("./upload-rss")).benchUploadRss({ build: values.build });
