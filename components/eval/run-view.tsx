"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { StatusBadge } from "@/components/trace/status-badge";
import { Section } from "@/components/trace/trace-view";
import { postJson } from "@/components/ui/use-json-post";
import type { QuestionRow, SetRunReport } from "@/lib/eval/course-run";
import type { Rate } from "@/lib/eval/metrics";
import type { Mean } from "@/lib/eval/set-metrics";
import type { EvalReport } from "@/lib/server/evaluation";
import { knobLimits } from "@/lib/workbench/compare";
import { ChunkSizeChart, chartedMetrics, ScoreDistribution } from "./charts";
import { HeadRow } from "./head-row";

/** A run as the API sends it (dates as strings). */
export interface RunJson {
  id: string;
  setName: string;
  kind: "single" | "ab" | "chunk_sizes";
  status: "running" | "done" | "failed";
  progress: number;
  total: number;
  configs: unknown;
  report: EvalReport | null;
  error: string | null;
  createdAt: string;
}

const POLL_MS = 600;
const pct = (v: number | null | undefined) => (v === null || v === undefined ? "—" : `${(v * 100).toFixed(1)}%`);
const ofRate = (r: Rate) => `${pct(r.rate)} (${r.hits}/${r.n})`;
const ofMean = (m: Mean) => `${pct(m.value)} (n=${m.n})`;

/** One evaluation run: its progress while it runs (polled), then its report. */
export function RunView({ courseSlug, initial, floor }: { courseSlug: string; initial: RunJson; floor: number }) {
  const [run, setRun] = useState(initial);
  useEffect(() => {
    if (run.status !== "running") return;
    const timer = setTimeout(async () => {
      const res = await fetch(`/api/courses/${encodeURIComponent(courseSlug)}/eval-runs/${encodeURIComponent(run.id)}`).catch(() => null);
      const data = res?.ok ? ((await res.json()) as { run: RunJson }) : null;
      // A failed poll keeps the last state; the next tick tries again.
      setRun((current) => (data ? data.run : { ...current }));
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [run, courseSlug]);

  if (run.status === "running") {
    return (
      <div className="mt-8 rounded-2xl border border-line bg-surface p-6" data-testid="run-progress">
        <p className="text-sm text-ink">
          Running… {run.progress} of {run.total} questions
        </p>
        <div role="progressbar" aria-label="Questions evaluated" aria-valuemin={0} aria-valuemax={run.total} aria-valuenow={run.progress} className="mt-3 h-2 overflow-hidden rounded-full bg-canvas">
          <div className="h-full rounded-full bg-accent-600 transition-all" style={{ width: `${(100 * run.progress) / Math.max(1, run.total)}%` }} />
        </div>
      </div>
    );
  }
  if (run.status === "failed" || !run.report) {
    return (
      <p role="alert" className="mt-8 rounded-2xl bg-rose-50 px-5 py-4 text-sm text-rose-800 ring-1 ring-inset ring-rose-200">
        {run.error ?? "The run failed."}
      </p>
    );
  }
  const report = run.report;
  return (
    <div className="mt-8 space-y-6" data-testid="run-report" data-kind={report.kind}>
      {report.kind === "single" ? <SingleReport courseSlug={courseSlug} report={report.runs[0]} floor={floor} /> : null}
      {report.kind === "ab" ? <AbReport courseSlug={courseSlug} report={report} floor={floor} /> : null}
      {report.kind === "chunk_sizes" ? (
        <Section title="Chunk size against retrieval" note="The course's current documents re-indexed into a scratch copy at each chunk size (the live course is untouched), and the set run on each copy.">
          <ChunkSizeChart sizes={report.sizes} />
          <MetricsTable columns={report.sizes.map((s) => `${s.targetTokens} tokens`)} headlines={report.headlines} />
        </Section>
      ) : null}
    </div>
  );
}

function MetricsTable({ columns, headlines }: { columns: string[]; headlines: Array<Record<string, number | null>> }) {
  return (
    <div className="-mx-2 mt-4 overflow-x-auto">
      <table className="w-full min-w-[28rem] text-sm" data-testid="metrics-table">
        <HeadRow labels={["Metric", ...columns]} rightFrom={1} />
        <tbody className="divide-y divide-line">
          {chartedMetrics.map((m) => (
            <tr key={m.key}>
              <td className="px-2 py-1.5 text-ink-soft">{m.label}</td>
              {headlines.map((h, i) => (
                <td key={i} className="px-2 py-1.5 text-right font-mono text-ink">
                  {pct(h[m.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SingleReport({ courseSlug, report, floor }: { courseSlug: string; report: SetRunReport; floor: number }) {
  const m = report.metrics;
  const cards: Array<[string, string, string]> = [
    ["Hit@k", ofMean(m.hitAtK), "A gold passage among the top k retrieved."],
    ["MRR", ofMean(m.mrr), "1 / rank of the first gold passage."],
    ["Precision@k", ofMean(m.precisionAtK), "Share of the k retrieved that are gold."],
    ["Recall@k", ofMean(m.recallAtK), "Share of the gold passages retrieved."],
    ["Sufficient evidence", ofMean(m.sufficientEvidenceRecall), "A gold passage reached the packed context."],
    ["Citation validity", ofRate(m.citationValidity), "Quotes found verbatim in the passage they cite."],
    ["Answer correctness", ofRate(m.answerCorrectness), "Answered, citing the gold evidence, with the expected answer."],
    ["Faithfulness", ofRate(m.faithfulness), "Claims whose quotes carry their key terms."],
    ["Unhelpful refusals", ofRate(m.unhelpfulRefusalRate), "Answerable questions declined."],
    ["Abstention", ofRate(m.abstentionRate), "Unanswerable questions declined, as they should be."],
  ];
  if (report.judge) {
    cards.push(["Judged correctness", ofRate(m.judgedCorrectness), `Judged by ${report.judge.model}.`], ["Judged faithfulness", ofRate(m.judgedFaithfulness), `Judged by ${report.judge.model}.`]);
  }
  return (
    <>
      <p className="text-sm text-muted">
        {report.questions.length} questions in {report.seconds.toFixed(2)} s · generator {report.generator} ·{" "}
        <span className="font-mono text-xs">{JSON.stringify(report.settings)}</span>
      </p>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5" data-testid="run-metrics">
        {cards.map(([label, value, note]) => (
          <div key={label} className="rounded-2xl border border-line bg-surface p-4" data-testid="run-metric" data-metric={label}>
            <p className="text-xs text-muted">{label}</p>
            <p className="mt-1 text-lg font-semibold tracking-tight text-ink">{value}</p>
            <p className="mt-1 text-xs leading-snug text-muted">{note}</p>
          </div>
        ))}
      </div>
      <FloorSection courseSlug={courseSlug} questions={report.questions} floor={floor} runFloor={report.settings.minScore} />
      <Section title="Time per stage" note="Mean and 95th percentile over the questions that reached each stage.">
        <table className="w-full max-w-lg text-sm" data-testid="latency-table">
          <HeadRow labels={["Stage", "Mean", "p95", "Questions"]} rightFrom={1} />
          <tbody className="divide-y divide-line font-mono">
            {Object.entries(m.latency).map(([stage, l]) => (
              <tr key={stage}>
                <td className="px-2 py-1.5 font-sans text-ink-soft">{stage === "totalMs" ? "whole question" : stage}</td>
                <td className="px-2 py-1.5 text-right">{l.meanMs.toFixed(1)} ms</td>
                <td className="px-2 py-1.5 text-right">{l.p95Ms.toFixed(1)} ms</td>
                <td className="px-2 py-1.5 text-right">{l.n}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      {report.judge ? (
        <Section title="The judge's prompt" note={`Sent to ${report.judge.model} for each answered question.`}>
          <pre className="whitespace-pre-wrap rounded-lg bg-canvas p-3 text-xs text-ink-soft">{report.judge.prompt}</pre>
        </Section>
      ) : null}
      <QuestionTable questions={report.questions} />
    </>
  );
}

const yes = (v: number | boolean | null) => (v === null ? "—" : v === true || v === 1 ? "yes" : v === false || v === 0 ? "no" : v.toFixed(2));

function QuestionTable({ questions }: { questions: QuestionRow[] }) {
  return (
    <Section title="Questions" note="Each question's outcome; a miss names the stage that lost it.">
      <div className="-mx-2 overflow-x-auto">
        <table className="w-full min-w-[56rem] text-sm" data-testid="question-table">
          <HeadRow labels={["Question", "Kind", "Expected", "Got", "Hit", "RR", "Sufficient", "Correct", "Top score", "Lost at"]} />
          <tbody className="divide-y divide-line">
            {questions.map((q) => (
              <tr key={q.id} data-testid="question-row" data-status={q.status} className={q.cause ? "bg-amber-50/50" : ""}>
                <td className="max-w-xs px-2 py-1.5 text-ink">
                  {q.history.length ? <span className="block text-xs text-muted">after “{q.history.join("”, “")}”</span> : null}
                  {q.question}
                </td>
                <td className="px-2 py-1.5 text-ink-soft">{q.kind}</td>
                <td className="px-2 py-1.5 text-ink-soft">{q.expect.replace(/_/g, " ")}</td>
                <td className="px-2 py-1.5">
                  <StatusBadge status={q.status} />
                </td>
                <td className="px-2 py-1.5 font-mono">{yes(q.hit)}</td>
                <td className="px-2 py-1.5 font-mono">{q.rr === null ? "—" : q.rr.toFixed(2)}</td>
                <td className="px-2 py-1.5 font-mono">{yes(q.sufficient)}</td>
                <td className="px-2 py-1.5 font-mono">{yes(q.correct)}</td>
                <td className="px-2 py-1.5 font-mono">{q.topScore === null ? "—" : q.topScore.toFixed(2)}</td>
                <td className="px-2 py-1.5 text-amber-900">{q.cause ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}

/** The score distribution with the course's floor, and setting a new floor after a confirmation. */
function FloorSection({ courseSlug, questions, floor, runFloor }: { courseSlug: string; questions: QuestionRow[]; floor: number; runFloor: number }) {
  const router = useRouter();
  const [value, setValue] = useState(floor);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const scores = (rows: QuestionRow[]) => rows.map((q) => q.topScore).filter((s): s is number => s !== null);
  const answerable = scores(questions.filter((q) => q.expect === "answered" || q.expect === "partial"));
  const unanswerable = scores(questions.filter((q) => q.expect === "insufficient_evidence"));
  const pick = (v: number) => {
    setValue(v);
    setConfirming(false);
    setMessage(null);
  };
  async function confirm() {
    const result = await postJson<{ minScore: number }>(`/api/courses/${encodeURIComponent(courseSlug)}/floor`, { minScore: value, confirm: true });
    setConfirming(false);
    setMessage(result.ok ? `The course's floor is now ${result.data.minScore}. New answers, playground runs and evaluations use it.` : result.message);
    if (result.ok) router.refresh();
  }
  return (
    <Section
      title="Top-hit score: answerable against unanswerable"
      note={`The gate's answer score of each question's best passage. A floor separates the two: answerable questions to its right, unanswerable to its left. The dashed line is the course's floor (this run used ${runFloor}). Click a bar to take its lower edge.`}
    >
      <ScoreDistribution answerable={answerable} unanswerable={unanswerable} floor={floor} onPick={pick} />
      <div className="mt-4 flex flex-wrap items-end gap-3">
        <label className="block">
          <span className="text-sm text-ink-soft">New floor</span>
          <input
            type="number"
            min={0}
            max={1}
            step={knobLimits.minScore.step}
            value={value}
            onChange={(e) => pick(e.target.valueAsNumber)}
            className="mt-1 block w-28 rounded-lg border border-line-strong bg-surface px-3 py-2 font-mono text-[15px] text-ink outline-none focus:border-accent-500 focus:ring-2 focus:ring-accent-100"
          />
        </label>
        <button
          type="button"
          disabled={!Number.isFinite(value) || value < 0 || value > 1 || value === floor}
          onClick={() => setConfirming(true)}
          className="rounded-lg border border-line-strong bg-surface px-4 py-2 text-sm font-medium text-ink transition hover:bg-canvas disabled:opacity-50"
        >
          Set floor here
        </button>
        {message ? (
          <p role="status" className="text-sm text-ink-soft">
            {message}
          </p>
        ) : null}
      </div>
      {confirming ? (
        <div role="alertdialog" aria-labelledby="floor-confirm-title" className="mt-4 rounded-xl bg-amber-50 px-4 py-3 ring-1 ring-inset ring-amber-200">
          <p id="floor-confirm-title" className="text-sm font-medium text-amber-950">
            Set the course's answer floor from {floor} to {value}?
          </p>
          <p className="mt-1 text-sm text-amber-900">
            Every student answer from now on uses it: a higher floor declines more questions, a lower one answers from weaker passages.
          </p>
          <div className="mt-3 flex gap-2">
            <button type="button" onClick={confirm} className="rounded-lg bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700">
              Confirm
            </button>
            <button type="button" onClick={() => setConfirming(false)} className="rounded-lg px-3 py-1.5 text-sm text-muted hover:bg-canvas hover:text-ink">
              Cancel
            </button>
          </div>
        </div>
      ) : null}
    </Section>
  );
}

const stageLabel: Record<string, string> = {
  analyze: "analysis (the question as searched)",
  retrieve: "retrieval",
  gate: "the gate",
  pack: "packing",
  generate: "generation",
  decide: "the decision",
};

function AbReport({ courseSlug, report, floor }: { courseSlug: string; report: Extract<EvalReport, { kind: "ab" }>; floor: number }) {
  const [a, b] = report.runs;
  const changed = report.diffs.filter((d) => d.changed);
  const expectOf = new Map(a.questions.map((q) => [q.id, q.expect]));
  const [open, setOpen] = useState<"a" | "b" | null>(null);
  return (
    <>
      <div className="grid gap-4 md:grid-cols-2">
        {[
          ["A", a],
          ["B", b],
        ].map(([name, r]) => (
          <div key={name as string} className="rounded-2xl border border-line bg-surface p-5" data-testid={`config-${name}`}>
            <h2 className="text-base font-semibold text-ink">Configuration {name as string}</h2>
            <pre className="mt-2 whitespace-pre-wrap font-mono text-xs text-ink-soft">{JSON.stringify((r as SetRunReport).settings, null, 2)}</pre>
          </div>
        ))}
      </div>
      <Section title="Metrics" note="The same set under both configurations.">
        <MetricsTable columns={["A", "B"]} headlines={report.headlines} />
      </Section>
      <Section title={`Questions whose outcome changed (${changed.length})`} note="Status or correctness differs; the stage is the first one whose output differed between the two runs.">
        {changed.length === 0 ? (
          <p className="text-sm text-muted">No question changed outcome.</p>
        ) : (
          <div className="-mx-2 overflow-x-auto">
            <table className="w-full min-w-[40rem] text-sm" data-testid="ab-diffs">
              <HeadRow labels={["Question", "A", "B", "Diverged at"]} />
              <tbody className="divide-y divide-line">
                {changed.map((d) => (
                  <tr key={d.id} data-testid="ab-diff" data-stage={d.stage ?? "none"}>
                    <td className="max-w-sm px-2 py-1.5 text-ink">{d.question}</td>
                    {[d.a, d.b].map((o, i) => (
                      <td key={i} className="px-2 py-1.5">
                        <StatusBadge status={o.status} />
                        <Verdict correct={o.correct} status={o.status} declines={expectOf.get(d.id) === "insufficient_evidence"} />
                      </td>
                    ))}
                    <td className="px-2 py-1.5 text-amber-900">{d.stage ? stageLabel[d.stage] : "no stage differed"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Section>
      <div className="flex gap-2">
        {(["a", "b"] as const).map((side) => (
          <button key={side} type="button" onClick={() => setOpen(open === side ? null : side)} aria-expanded={open === side} className="rounded-lg border border-line-strong bg-surface px-3 py-1.5 text-sm text-ink hover:bg-canvas">
            {open === side ? "Hide" : "Show"} the full report of {side.toUpperCase()}
          </button>
        ))}
      </div>
      {open ? <SingleReport courseSlug={courseSlug} report={open === "a" ? a : b} floor={floor} /> : null}
    </>
  );
}

/** A changed outcome in words: correct or not for a question with gold evidence; for one the notes cannot answer, whether it was declined. */
function Verdict({ correct, status, declines }: { correct: boolean | null; status: string; declines: boolean }) {
  const words = correct !== null ? (correct ? "correct" : "not correct") : declines ? (status === "insufficient_evidence" ? "declined, as it should" : "should have declined") : null;
  return words ? <span className={`ml-1 text-xs ${words === "should have declined" ? "text-rose-700" : "text-muted"}`}>{words}</span> : null;
}
