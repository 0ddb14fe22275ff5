/**
 * npm run bench — measured figures, printed as ratios against a reference run in the same
 * process. Ingestion: pages/s of extract + chunk + index against poppler's pdftotext on the
 * same files. Question path: latency percentiles of retrieve → decide on large courses.
 */
import { benchIngestion } from "./ingestion";
import { benchQuestions } from "./questions";
import { benchRetrieval } from "./retrieval";
import { benchSquad } from "./squad";

const only = process.argv[2];
if (!only || only === "ingest") await benchIngestion();
if (!only || only === "retrieval") await benchRetrieval();
if (!only || only === "ask") await benchQuestions();
// Opt-in only (`npm run bench -- squad`): it ingests three articles and asks 836 SQuAD 2.0 questions (about 10 s with the
// extractive answerer when written), kept out of the default run while the answerer is being rewritten.
if (only === "squad") await benchSquad();
