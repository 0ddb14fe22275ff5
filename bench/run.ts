/**
 * npm run bench — measured figures, printed as ratios against a reference run in the same
 * process. Ingestion: pages/s of extract + chunk + index against poppler's pdftotext on the
 * same files. Question path: latency percentiles of retrieve → decide on large courses.
 *
 *   npm run bench [-- ingest | retrieval | ask [--chunks 10000,1000000] | study | squad | http [--build]]
 */
import { parseArgs } from "node:util";
import { fail } from "../scripts/cli-args";
import { benchHttp } from "./http";
import { benchIngestion } from "./ingestion";
import { benchQuestions, DEFAULT_COURSE_SIZES } from "./questions";
import { benchRetrieval } from "./retrieval";
import { benchSquad } from "./squad";
import { benchStudy } from "./study";
import { logToStderr } from "@/lib/server/log";

// Stdout is the result; the worker's log lines go to stderr.
logToStderr();

const { values, positionals } = parseArgs({ allowPositionals: true, options: { chunks: { type: "string" }, build: { type: "boolean", default: false } } });
const only = positionals[0];
const sizes = values.chunks?.split(",").map(Number) ?? DEFAULT_COURSE_SIZES;
if (!sizes.every((n) => Number.isInteger(n) && n >= 1)) fail(`--chunks takes course sizes in chunks, comma-separated (got “${values.chunks}”).`);

if (!only || only === "ingest") await benchIngestion();
if (!only || only === "retrieval") await benchRetrieval();
if (!only || only === "ask") await benchQuestions(sizes);
if (!only || only === "study") await benchStudy();
// Opt-in only (`npm run bench -- squad`): it ingests three articles and asks 836 SQuAD 2.0 questions (about 10 s with the
// extractive answerer when written), kept out of the default run while the answerer is being rewritten.
if (only === "squad") await benchSquad();
// Opt-in only: it builds the app when no build exists, starts it and loads it for several minutes.
if (only === "http") await benchHttp({ build: values.build });
