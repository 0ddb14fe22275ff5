"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { StatusBadge } from "@/components/trace/status-badge";
import { Section } from "@/components/trace/trace-view";
import { useJsonPost } from "@/components/ui/use-json-post";
import { compareRuns, knobLimits, type Knobs, type PassageFate, type PlaygroundRun } from "@/lib/workbench/compare";
import { QuestionField } from "./question-field";

const knobFields: Array<{ key: keyof Knobs; label: string; hint: string }> = [
  { key: "k", label: "Passages retrieved (k)", hint: "How many passages the search returns." },
  { key: "minScore", label: "Answer-score floor", hint: "Below it a passage is held back, and no answer is given from it." },
  { key: "maxPassages", label: "Passages sent at most", hint: "The cap on the passages in one request." },
  { key: "contextWindow", label: "Context window (tokens)", hint: "The budget the request must fit, with room for the answer." },
];

const dropped: Record<string, string> = { over_budget: "over the budget", cap_reached: "past the passage cap", duplicate: "a duplicate" };

/** What happened to a passage in one run, in words. */
function fateText(f: PassageFate | null): string {
  if (!f) return "not retrieved";
  const score = f.score === null ? "" : ` · score ${f.score.toFixed(2)}`;
  if (f.decision === "included") return `#${f.rank} · sent as ${f.label}${score}`;
  if (f.decision === "below_floor") return `#${f.rank} · held back, under the floor${score}`;
  return `#${f.rank} · ${dropped[f.decision]}${score}`;
}

/**
 * The knob playground: one question run with the default settings and with the instructor's,
 * side by side, with every difference marked. Runs are traced, never stored as answers.
 */
export function Playground({
  courseSlug,
  defaults,
  initialQuestion,
  history,
}: {
  courseSlug: string;
  defaults: Knobs;
  initialQuestion: string;
  /** Earlier questions of the conversation the question came from. */
  history: string[];
}) {
  const [question, setQuestion] = useState(initialQuestion);
  const [knobs, setKnobs] = useState<Knobs>(defaults);
  const [withHistory, setWithHistory] = useState(history.length > 0);
  const [runs, setRuns] = useState<{ original: PlaygroundRun; variant: PlaygroundRun } | null>(null);
  const { error, pending, post } = useJsonPost(setRuns);
  const changed = (key: keyof Knobs) => knobs[key] !== defaults[key];

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void post(`/api/courses/${encodeURIComponent(courseSlug)}/playground`, { question, history: withHistory ? history : [], knobs });
  }

  return (
    <div className="mt-8 space-y-6">
      <form onSubmit={submit} className="rounded-2xl border border-line bg-surface p-5 sm:p-6" data-testid="playground-form">
        <QuestionField value={question} onChange={setQuestion} />
        {history.length ? (
          <label className="mt-3 flex items-start gap-2 text-sm text-ink-soft">
            <input type="checkbox" checked={withHistory} onChange={(e) => setWithHistory(e.target.checked)} className="mt-0.5 accent-accent-600" />
            <span>Asked as a follow-up to: {history.map((h) => `“${h}”`).join(", ")}</span>
          </label>
        ) : null}
        <fieldset className="mt-5">
          <legend className="text-sm font-medium text-ink">Your settings</legend>
          <p className="mt-0.5 text-sm text-muted">The original runs with the defaults; changed settings are marked.</p>
          <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {knobFields.map(({ key, label, hint }) => (
              <label key={key} className="block">
                <span className="text-sm text-ink-soft">{label}</span>
                <input
                  type="number"
                  required
                  {...knobLimits[key]}
                  value={knobs[key]}
                  onChange={(e) => setKnobs({ ...knobs, [key]: e.target.valueAsNumber })}
                  title={hint}
                  className={`mt-1 w-full rounded-lg border bg-surface px-3 py-2 font-mono text-[15px] text-ink outline-none transition focus:border-accent-500 focus:ring-2 focus:ring-accent-100 ${
                    changed(key) ? "border-amber-400 bg-amber-50/60" : "border-line-strong"
                  }`}
                />
                <span className="mt-1 block text-xs text-muted">Default {defaults[key]}</span>
              </label>
            ))}
          </div>
        </fieldset>
        <div className="mt-5 flex flex-wrap items-center gap-3">
          <button
            type="submit"
            disabled={pending || !question.trim()}
            className="rounded-lg bg-accent-600 px-4 py-2 text-sm font-medium text-white shadow-sm transition hover:bg-accent-700 disabled:opacity-60"
          >
            {pending ? "Running both…" : "Run side by side"}
          </button>
          <button type="button" onClick={() => setKnobs(defaults)} className="rounded-lg px-3 py-2 text-sm text-muted transition hover:bg-canvas hover:text-ink">
            Reset to defaults
          </button>
          {error ? (
            <p role="alert" className="text-sm text-rose-700">
              {error}
            </p>
          ) : null}
        </div>
      </form>
      {runs ? <Comparison courseSlug={courseSlug} runs={runs} /> : null}
    </div>
  );
}

function Comparison({ courseSlug, runs }: { courseSlug: string; runs: { original: PlaygroundRun; variant: PlaygroundRun } }) {
  const diff = compareRuns(runs.original, runs.variant);
  const sides = [
    { key: "original", title: "Original", note: "Default settings", run: runs.original },
    { key: "variant", title: "Variant", note: "Your settings", run: runs.variant },
  ] as const;
  return (
    <div className="space-y-6" data-testid="playground-result">
      <div className="grid gap-4 md:grid-cols-2">
        {sides.map(({ key, title, note, run }) => {
          const s = run.trace.settings;
          const other = (key === "original" ? runs.variant : runs.original).trace.settings;
          return (
            <div
              key={key}
              data-testid={`run-${key}`}
              data-status={run.answer.status}
              className={`rounded-2xl border bg-surface p-5 ${diff.statusChanged ? "border-amber-300" : "border-line"}`}
            >
              <div className="flex items-center justify-between gap-3">
                <h3 className="text-base font-semibold text-ink">
                  {title} <span className="font-normal text-muted">· {note}</span>
                </h3>
                <StatusBadge status={run.answer.status} />
              </div>
              <p className="mt-2 flex flex-wrap gap-x-3 gap-y-1 font-mono text-xs text-ink-soft">
                {(["k", "minScore", "maxPassages", "contextWindow"] as const).map((k) => (
                  <span key={k} className={s[k] !== other[k] ? "rounded bg-amber-100 px-1 text-amber-900" : ""}>
                    {k} {s[k]}
                  </span>
                ))}
              </p>
              {run.answer.message ? <p className="mt-3 text-sm text-muted">{run.answer.message}</p> : null}
              <Link
                href={`/courses/${encodeURIComponent(courseSlug)}/traces/${encodeURIComponent(run.trace.id)}`}
                className="mt-3 inline-block text-sm text-accent-700 hover:underline"
              >
                Open its trace →
              </Link>
            </div>
          );
        })}
      </div>
      {diff.statusChanged ? (
        <p data-testid="status-changed" className="rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
          The outcome changed: {runs.original.answer.status.replace(/_/g, " ")} with the defaults, {runs.variant.answer.status.replace(/_/g, " ")} with your settings.
        </p>
      ) : null}

      <Section title="Passages" note="What each run retrieved (#rank), and what the gate and packing did with it. Rows that differ are marked.">
        <div className="-mx-2 overflow-x-auto">
          <table className="w-full min-w-[640px] text-sm">
            <thead className="text-xs uppercase tracking-wide text-muted">
              <tr>
                <th className="px-3 py-2 text-left">Passage</th>
                <th className="px-3 py-2 text-left">Original</th>
                <th className="px-3 py-2 text-left">Variant</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {diff.passages.map((p) => (
                <tr key={p.chunkId} data-testid="passage-row" data-changed={p.changed} className={p.changed ? "bg-amber-50/70" : ""}>
                  <td className="px-3 py-2 align-top">
                    <span className="text-ink">{p.documentTitle}</span>
                    <span className="block text-xs text-muted">
                      PDF page {p.pdfPage}
                      {p.changed ? <span className="ml-2 font-medium text-amber-800">differs</span> : null}
                    </span>
                  </td>
                  {p.fates.map((f, i) => (
                    <td key={i} className={`px-3 py-2 align-top ${f?.decision === "included" ? "font-medium text-accent-700" : "text-muted"}`}>
                      {fateText(f)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {diff.passages.length === 0 ? <p className="px-2 text-sm text-muted">Neither run found a passage.</p> : null}
        </div>
      </Section>

      <Section title="Claims" note="Every claim either run made. A claim only one run made is marked with the run that made it.">
        {diff.claims.length === 0 ? (
          <p className="text-sm text-muted">Neither run made a claim.</p>
        ) : (
          <ul className="space-y-2">
            {diff.claims.map((c) => {
              const only = c.made[0] && c.made[1] ? null : c.made[0] ? "original only" : "variant only";
              return (
                <li
                  key={`${c.ask}\n${c.text}`}
                  data-testid="claim-row"
                  data-made={only ?? "both"}
                  className={`rounded-lg px-3 py-2 text-sm ring-1 ring-inset ${
                    only === "variant only" ? "bg-emerald-50/70 ring-emerald-200" : only ? "bg-rose-50/70 ring-rose-200" : "ring-line"
                  }`}
                >
                  <span className="block text-xs text-muted">
                    {c.ask} · {only ?? "both runs"}
                  </span>
                  <span className="text-ink">{c.text}</span>
                </li>
              );
            })}
          </ul>
        )}
      </Section>
    </div>
  );
}
