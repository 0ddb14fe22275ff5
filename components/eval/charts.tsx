"use client";

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { Headline } from "@/lib/eval/set-metrics";

/** The headline figures the charts draw, with their labels and colours. */
export const chartedMetrics: Array<{ key: keyof Headline; label: string; color: string }> = [
  { key: "hitAtK", label: "Hit@k", color: "#2563eb" },
  { key: "mrr", label: "MRR", color: "#7c3aed" },
  { key: "recallAtK", label: "Recall@k", color: "#0891b2" },
  { key: "sufficientEvidenceRecall", label: "Sufficient evidence", color: "#059669" },
  { key: "answerCorrectness", label: "Answer correctness", color: "#d97706" },
  { key: "unhelpfulRefusalRate", label: "Unhelpful refusals", color: "#dc2626" },
  { key: "abstentionRate", label: "Abstention (unanswerable)", color: "#57534e" },
];

const percentTick = (v: number) => `${Math.round(v * 100)}%`;
const percentTip = (v: unknown) => (typeof v === "number" ? `${(v * 100).toFixed(1)}%` : "—");

/** The headline figures of each finished run, oldest first. */
export function RunsOverTime({ points }: { points: Array<{ label: string; headline: Headline }> }) {
  const data = points.map((p) => ({ label: p.label, ...p.headline }));
  return (
    <div data-testid="runs-chart" className="h-72 w-full" role="img" aria-label={`Evaluation metrics of the last ${points.length} runs`}>
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
          <YAxis domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 11 }} />
          <Tooltip formatter={percentTip} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {chartedMetrics.map((m) => (
            <Line key={m.key} type="monotone" dataKey={m.key} name={m.label} stroke={m.color} strokeWidth={2} dot={{ r: 3 }} connectNulls isAnimationActive={false} />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Bins of 0.05 from 0 to 1: fine enough to place a floor, coarse enough to read with 20 questions. */
export const SCORE_BIN = 0.05;
const BINS = Math.round(1 / SCORE_BIN);

/** How many top-hit scores fall in each bin, for answerable and for unanswerable questions. */
export function scoreBins({ answerable, unanswerable }: { answerable: number[]; unanswerable: number[] }) {
  const bin = (v: number) => Math.min(BINS - 1, Math.floor(v / SCORE_BIN + 1e-9));
  const rows = Array.from({ length: BINS }, (_, i) => ({ from: Math.round(i * SCORE_BIN * 100) / 100, answerable: 0, unanswerable: 0 }));
  for (const v of answerable) rows[bin(v)].answerable++;
  for (const v of unanswerable) rows[bin(v)].unanswerable++;
  return rows;
}

/**
 * The top hit's answer score for answerable and unanswerable questions, with the gate's floor: a
 * good floor has the answerable questions to its right and the unanswerable ones to its left.
 * Clicking a bin offers its lower edge as the new floor.
 */
export function ScoreDistribution({ answerable, unanswerable, floor, onPick }: { answerable: number[]; unanswerable: number[]; floor: number; onPick: (value: number) => void }) {
  const data = scoreBins({ answerable, unanswerable });
  return (
    <div data-testid="score-chart" className="h-72 w-full" role="img" aria-label={`Top-hit scores of ${answerable.length} answerable and ${unanswerable.length} unanswerable questions; the floor is ${floor}`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={data}
          margin={{ top: 20, right: 16, bottom: 0, left: -16 }}
          onClick={(state) => {
            const i = Number(state?.activeTooltipIndex ?? Number.NaN);
            if (Number.isInteger(i) && data[i]) onPick(data[i].from);
          }}
        >
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
          <XAxis dataKey="from" type="number" domain={[0, 1]} ticks={[0, 0.2, 0.4, 0.6, 0.8, 1]} tick={{ fontSize: 11 }} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip labelFormatter={(v) => `score ${Number(v).toFixed(2)}–${(Number(v) + SCORE_BIN).toFixed(2)}`} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="answerable" name="Answerable" fill="#059669" barSize={10} isAnimationActive={false} />
          <Bar dataKey="unanswerable" name="Unanswerable" fill="#dc2626" barSize={10} isAnimationActive={false} />
          <ReferenceLine x={floor} stroke="#1c1917" strokeDasharray="4 3" label={{ value: `floor ${floor}`, position: "top", fontSize: 11 }} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

/** The chunk-size experiment: the retrieval figures per chunk size. */
export function ChunkSizeChart({ sizes }: { sizes: Array<{ targetTokens: number; chunks: number; headline: Headline }> }) {
  const data = sizes.map((s) => ({ label: `${s.targetTokens} tokens (${s.chunks} chunks)`, ...s.headline }));
  return (
    <div data-testid="chunk-chart" className="h-72 w-full" role="img" aria-label={`Retrieval metrics for chunks of ${sizes.map((s) => s.targetTokens).join(", ")} tokens`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} />
          <YAxis domain={[0, 1]} tickFormatter={percentTick} tick={{ fontSize: 11 }} />
          <Tooltip formatter={percentTip} />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          {chartedMetrics.slice(0, 5).map((m) => (
            <Bar key={m.key} dataKey={m.key} name={m.label} fill={m.color} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
