/**
 * The golden-set evaluation (lib/eval): builds a temporary database with the demo course and
 * every corpus PDF, asks every golden question, prints metrics and misses.
 *
 *   npx tsx --conditions=react-server scripts/eval.ts [--split tune|test|all] [--min-score X] [--k N] [--max-passages N]
 *   npx tsx --conditions=react-server scripts/eval.ts --sweep        minScore × k on the tune split (or --split)
 *   npx tsx --conditions=react-server scripts/eval.ts --fit          fit the answer ranker's weights (lib/eval/fit.ts), report leave-one-document-out figures
 *   npx tsx --conditions=react-server scripts/eval.ts --cards        study-card quality on every corpus PDF (lib/eval/cards.ts)
 *   npx tsx --conditions=react-server scripts/eval.ts --check        every label checked against the indexed pages
 *   … [--ids demo-01,ml-03] [--json FILE] [--verbose]
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { closeEvalDb, evalDb, loadGolden, pageText, runGolden, selectSplit, type QuestionResult, type RunReport } from "@/lib/eval/run";
import { missCauses, normalizeForMatch, type GroupMetrics, type Metrics, type Rate, type Split } from "@/lib/eval/metrics";
import { fitRanker } from "@/lib/eval/fit";
import { evaluateCards } from "@/lib/eval/cards";
import type { AskSettings } from "@/lib/rag/pipeline";
import { fail, helpRequested } from "./cli-args";
import { logToStderr } from "@/lib/server/log";

// Stdout is the result; the worker's log lines go to stderr.
logToStderr();

const usage =
  "Usage: scripts/eval.ts [--golden FILE.jsonl] [--corpus DIR] [--split tune|test|all] [--min-score X] [--k N] [--max-passages N] [--sweep | --fit [--misses] | --check | --cards] [--ids a,b] [--json FILE] [--verbose]";

const { values } = parseArgs({
  options: {
    split: { type: "string" },
    "min-score": { type: "string" },
    k: { type: "string" },
    "max-passages": { type: "string" },
    golden: { type: "string" },
    corpus: { type: "string" },
    sweep: { type: "boolean", default: false },
    fit: { type: "boolean", default: false },
    misses: { type: "boolean", default: false },
    cards: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    ids: { type: "string" },
    json: { type: "string" },
    verbose: { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});

/** The question set: golden.jsonl by default, or another file of the same format (e.g. lib/eval/fresh.jsonl). */
const goldenSet = loadGolden(values.golden);

helpRequested(values.help, usage);

const split = (values.split ?? (values.sweep ? "tune" : "all")) as Split | "all";
if (!["tune", "test", "all"].includes(split)) fail(`--split must be tune, test or all (got “${values.split}”).\n${usage}`);

function num(name: string, raw: string | undefined, { int = false, min = -Infinity, max = Infinity } = {}): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || (int && !Number.isInteger(n)) || n < min || n > max) fail(`--${name} must be ${int ? "a whole number" : "a number"} in [${min}, ${max}] (got “${raw}”).`);
  return n;
}

const overrides: Partial<AskSettings> = Object.fromEntries(
  Object.entries({
    minScore: num("min-score", values["min-score"], { min: 0, max: 1 }),
    k: num("k", values.k, { int: true, min: 1, max: 200 }),
    maxPassages: num("max-passages", values["max-passages"], { int: true, min: 1, max: 200 }),
  }).filter(([, v]) => v !== undefined),
);
const ids = values.ids?.split(",").map((s) => s.trim()).filter(Boolean);

// ─── Formatting ─────────────────────────────────────────────────────────────────────────────

const pct = (r: Rate) => (r.rate === null ? "–" : `${(r.rate * 100).toFixed(1)}%`);
const frac = (r: Rate) => `${pct(r)} (${r.hits}/${r.n})`;
const pad = (s: string, n: number) => (s.length >= n ? s : s + " ".repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : " ".repeat(n - s.length) + s);

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? pad(c, widths[i]) : lpad(c, widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

function printMetrics(m: Metrics) {
  console.log(
    table(
      ["metric", "value"],
      [
        ["questions", String(m.n)],
        ["status accuracy", frac(m.statusAccuracy)],
        ["answerable → answered/partial", frac(m.answerableAnswered)],
        ["unhelpful refusals (answerable refused)", frac(m.unhelpfulRefusals)],
        ["false answers (should abstain)", frac(m.falseAnswers)],
        ["  of which clearly off-topic", frac(m.offTopicFalseAnswers)],
        ["partial over-answered (missing part claimed)", frac(m.partialOverAnswered)],
        ["citation page accuracy (supported parts)", frac(m.pageAccuracy)],
        ["answer substring hits", frac(m.answerHits)],
        ["validation failures (must be 0)", String(m.validationFailures)],
        ["retrieval/generation errors", String(m.operationalErrors)],
      ],
    ),
  );
  const group = (title: string, groups: Record<string, GroupMetrics>) => {
    console.log(`\n${title}`);
    console.log(
      table(
        ["", "n", "status acc", "answered", "false ans", "page acc", "answer hits"],
        Object.entries(groups).map(([k, g]) => [k, String(g.n), frac(g.statusAccuracy), frac(g.answerableAnswered), frac(g.falseAnswers), frac(g.pageAccuracy), frac(g.answerHits)]),
      ),
    );
  };
  group("By kind", m.byKind);
  group("By course", m.byCourse);
  console.log("\nExpected → got");
  for (const [expected, row] of Object.entries(m.confusion)) {
    console.log(`  ${pad(expected, 22)} ${Object.entries(row).map(([got, n]) => `${got}: ${n}`).join(", ")}`);
  }
}

function cited(r: QuestionResult): string {
  const pages = r.parts.flatMap((p) => p.claims.flatMap((c) => c.citations.map((cit) => `${cit.documentTitle} p.${cit.pdfPage}`)));
  return [...new Set(pages)].join("; ") || "–";
}

function printMisses(results: QuestionResult[], verbose: boolean) {
  const misses = results.filter((r) => r.cause);
  console.log(`\nMisses: ${misses.length} of ${results.length}`);
  for (const cause of missCauses) {
    const group = misses.filter((r) => r.cause === cause);
    if (!group.length) continue;
    console.log(`\n[${cause}] ${group.length}`);
    for (const r of group) {
      const g = r.golden;
      const hist = g.history?.length ? ` (after: ${g.history.map((h) => `“${h}”`).join(" → ")})` : "";
      console.log(`  ${g.id}: “${g.question}”${hist}`);
      if (r.standaloneQuery !== g.question) console.log(`      as: “${r.standaloneQuery}”`);
      const want = [g.expect, g.pages?.map((p) => `${p.document} p.${p.pdfPage}`).join(" | "), g.answer && `“${g.answer}”`].filter(Boolean).join(", ");
      console.log(`      expected: ${want}`);
      console.log(`      got: ${r.status}; cited: ${cited(r)}`);
      for (const p of r.parts) {
        const claims = p.claims.map((c) => `“${c.text.replace(/\s+/g, " ").slice(0, 140)}”`).join(" / ");
        console.log(`        - [${p.state}] ${p.ask}${claims ? ` → ${claims}` : ""}`);
      }
      if (verbose) {
        console.log(`      retrieved: ${r.retrievedPages.join("; ") || "–"}`);
        console.log(`      sent: ${r.sentPages.join("; ") || "–"}`);
      }
    }
  }
}

const settingsLine = (r: RunReport) => `k=${r.settings.k} minScore=${r.settings.minScore} maxPassages=${r.settings.maxPassages} contextWindow=${r.settings.contextWindow} generator=${r.generator}`;

// ─── Modes ──────────────────────────────────────────────────────────────────────────────────

async function check() {
  const db = await evalDb(values.corpus);
  const golden = selectSplit(goldenSet, split).filter((g) => !ids || ids.includes(g.id));
  let problems = 0;
  for (const g of golden) {
    if (!db.courses.has(g.course)) {
      console.log(`${g.id}: unknown course “${g.course}”`);
      problems++;
      continue;
    }
    const texts: string[] = [];
    for (const p of g.pages ?? []) {
      const text = await pageText(db, g.course, p.document, p.pdfPage);
      if (text === null) {
        console.log(`${g.id}: no page ${p.pdfPage} in a document matching “${p.document}”`);
        problems++;
      } else texts.push(text);
    }
    if (g.answer && texts.length && !texts.some((t) => normalizeForMatch(t).includes(normalizeForMatch(g.answer!)))) {
      console.log(`${g.id}: “${g.answer}” is on none of the expected pages`);
      problems++;
    }
  }
  console.log(`${golden.length} golden questions checked against the index: ${problems} problem(s).`);
  return problems;
}

async function single() {
  const report = await runGolden({ split, overrides, ids, golden: goldenSet, corpusDir: values.corpus });
  console.log(`Golden set, split ${split}: ${report.results.length} questions in ${report.seconds.toFixed(1)} s (${settingsLine(report)})\n`);
  printMetrics(report.metrics);
  printMisses(report.results, values.verbose);
  if (values.json) writeFileSync(values.json, JSON.stringify(report, null, 2));
}

async function sweep() {
  const minScores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6];
  const ks = [5, 8, 12];
  const rows: string[][] = [];
  const reports: RunReport[] = [];
  for (const k of ks) {
    for (const minScore of minScores) {
      const report = await runGolden({ split, overrides: { ...overrides, k, minScore }, ids, golden: goldenSet, corpusDir: values.corpus });
      reports.push(report);
      const m = report.metrics;
      rows.push([
        String(minScore),
        String(k),
        frac(m.statusAccuracy),
        frac(m.answerableAnswered),
        frac(m.unhelpfulRefusals),
        frac(m.falseAnswers),
        frac(m.offTopicFalseAnswers),
        frac(m.partialOverAnswered),
        frac(m.pageAccuracy),
        frac(m.answerHits),
        String(m.validationFailures),
      ]);
      process.stderr.write(".");
    }
  }
  process.stderr.write("\n");
  console.log(`Sweep on split ${split} (${reports[0]?.results.length ?? 0} questions per run; generator ${reports[0]?.generator})\n`);
  console.log(table(["minScore", "k", "status acc", "answered", "unhelpful refusals", "false answers", "off-topic FA", "partial over-ans", "page acc", "answer hits", "val.fail"], rows));
  if (values.json) writeFileSync(values.json, JSON.stringify(reports.map((r) => ({ settings: r.settings, metrics: r.metrics })), null, 2));
}

async function cards() {
  const rows = await evaluateCards((line) => process.stderr.write(`${line}\n`));
  const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : "—");
  const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
  console.log("Study cards, extractive default, whole course per corpus PDF (development data: the corpus was read while the generator was written)\n");
  console.log(
    table(
      ["PDF", "pages", "cards", "content span", "front finds own chunk (top 3)", "duplicates", "cards/page min/median/max", "ms"],
      [
        ...rows.map((r) => [r.course, String(r.pages), String(r.cards), pct(r.contentSpan, r.cards), pct(r.selfRetrieved, r.cards), String(r.duplicates), `${r.perPage.min} / ${r.perPage.median} / ${r.perPage.max}`, r.millis.toFixed(0)]),
        ["all", String(sum((r) => r.pages)), String(sum((r) => r.cards)), pct(sum((r) => r.contentSpan), sum((r) => r.cards)), pct(sum((r) => r.selfRetrieved), sum((r) => r.cards)), String(sum((r) => r.duplicates)), "", ""],
      ],
    ),
  );
  if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 2));
}

async function fit() {
  await fitRanker({ write: true, misses: values.misses, log: (line: string) => console.log(line) });
}

try {
  if (values.check) process.exitCode = (await check()) ? 1 : 0;
  else if (values.sweep) await sweep();
  else if (values.fit) await fit();
  else if (values.cards) await cards();
  else await single();
} catch (e) {
  console.error((e as Error).message);
  process.exitCode = 1;
} finally {
  await closeEvalDb();
}
