"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { StatusBadge } from "@/components/trace/status-badge";
import { RequestMessages, Section } from "@/components/trace/trace-view";
import { useJsonPost } from "@/components/ui/use-json-post";
import type { ProbeCondition, ProbeConclusion, ProbeConditionKey } from "@/lib/workbench/probe";
import { PassagePicker, where, type PickedPassage } from "./passage-picker";
import { QuestionField } from "./question-field";

const conditionText: Record<ProbeConditionKey, { title: string; note: string }> = {
  retrieved: { title: "Retrieved context", note: "What the live pipeline searched, gated and packed." },
  oracle: { title: "Your passages", note: "The passages you picked, sent in your order." },
  empty: { title: "No context", note: "Not a single passage: it must abstain." },
};


/**
 * The evidence-substitution probe: the instructor picks passages that should answer the question;
 * the question runs over the retrieved context, over those passages and over none, and the three
 * requests and outcomes are read together.
 */
export type ProbeResultData = { conditions: ProbeCondition[]; conclusion: ProbeConclusion };

export function Probe({ courseSlug, initialQuestion, initialResult }: { courseSlug: string; initialQuestion: string; initialResult: ProbeResultData | null }) {
  const [question, setQuestion] = useState(initialQuestion);
  const [picked, setPicked] = useState<PickedPassage[]>([]);
  const [result, setResult] = useState<ProbeResultData | null>(initialResult);
  const router = useRouter();
  // The stored probe joins "Earlier probes" (server-rendered) at once.
  const { error, pending, post } = useJsonPost((data: ProbeResultData) => {
    setResult(data);
    router.refresh();
  });
  const api = `/api/courses/${encodeURIComponent(courseSlug)}`;
  function run(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void post(`${api}/probe`, { question, oracleChunkIds: picked.map((p) => p.chunkId) });
  }

  return (
    <div className="mt-8 space-y-6">
      <Section title="1. Passages that answer it" note="Search the course’s notes and pick the passages a correct answer needs.">
        <PassagePicker courseSlug={courseSlug} initialQuery={initialQuestion} picked={picked} onChange={setPicked} />
      </Section>

      <form onSubmit={run} className="rounded-2xl border border-line bg-surface p-5 sm:p-6" data-testid="probe-form">
        <h2 className="text-base font-semibold tracking-tight text-ink">2. The question</h2>
        <div className="mt-3">
          <QuestionField value={question} onChange={setQuestion} />
        </div>
        <p className="mt-4 text-sm font-medium text-ink">Your passages ({picked.length})</p>
        {picked.length === 0 ? (
          <p className="mt-1 text-sm text-muted">None picked yet.</p>
        ) : (
          <ol className="mt-2 space-y-1 text-sm" data-testid="picked">
            {picked.map((p, i) => (
              <li key={p.chunkId} className="flex items-center justify-between gap-3 rounded-lg bg-canvas px-3 py-1.5">
                <span className="min-w-0 truncate text-ink-soft">
                  <span className="font-mono text-xs text-muted">S{i + 1}</span> {where(p)} · {p.excerpt}
                </span>
                <button type="button" onClick={() => setPicked(picked.filter((x) => x.chunkId !== p.chunkId))} className="shrink-0 text-xs text-muted hover:text-ink">
                  Remove
                </button>
              </li>
            ))}
          </ol>
        )}
        <div className="mt-5 flex flex-wrap items-center gap-3">
          <button
            type="submit"
            disabled={pending || !question.trim() || picked.length === 0}
            className="rounded-lg bg-accent-600 px-4 py-2 text-sm font-medium text-white shadow-sm transition hover:bg-accent-700 disabled:opacity-60"
          >
            {pending ? "Running three times…" : "Run the probe"}
          </button>
          <span className="text-sm text-muted">Same question, settings and generator three times; only the context changes.</span>
          {error ? (
            <p role="alert" className="w-full text-sm text-rose-700">
              {error}
            </p>
          ) : null}
        </div>
      </form>

      {result ? <ProbeResult courseSlug={courseSlug} result={result} /> : null}
    </div>
  );
}

function ProbeResult({ courseSlug, result }: { courseSlug: string; result: ProbeResultData }) {
  const { conclusion } = result;
  const calm = conclusion.verdict === "answered";
  return (
    <div className="space-y-4" data-testid="probe-result">
      <div
        data-testid="probe-conclusion"
        data-verdict={conclusion.verdict}
        className={`rounded-2xl px-5 py-4 ring-1 ring-inset ${calm ? "bg-emerald-50/70 ring-emerald-200" : "bg-amber-50/70 ring-amber-200"}`}
      >
        <h2 className="text-base font-semibold text-ink">Conclusion</h2>
        <p className="mt-1 text-[15px] leading-relaxed text-ink-soft">{conclusion.summary}</p>
      </div>
      <div className="grid gap-4 lg:grid-cols-3">
        {result.conditions.map((c) => (
          <article key={c.key} data-testid="probe-condition" data-condition={c.key} data-status={c.status} className="min-w-0 rounded-2xl border border-line bg-surface p-5">
            <div className="flex items-start justify-between gap-3">
              <div>
                <h3 className="text-base font-semibold text-ink">{conditionText[c.key].title}</h3>
                <p className="text-xs text-muted">{conditionText[c.key].note}</p>
              </div>
              <span className="shrink-0 whitespace-nowrap">
                <StatusBadge status={c.status} />
              </span>
            </div>
            <p className="mt-4 text-xs font-semibold uppercase tracking-wide text-muted">Context</p>
            {c.context.length ? (
              <ul className="mt-1 space-y-0.5 text-sm text-ink-soft">
                {c.context.map((p) => (
                  <li key={p.label}>
                    <span className="font-mono text-xs text-muted">{p.label}</span> {where(p)}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-1 text-sm text-muted">No passages.</p>
            )}
            <p className="mt-4 text-xs font-semibold uppercase tracking-wide text-muted">Outcome</p>
            {c.parts.some((p) => p.claims.length) ? (
              <ul className="mt-1 space-y-2 text-sm text-ink">
                {c.parts.flatMap((p) =>
                  p.claims.map((claim, i) => (
                    <li key={`${p.ask}:${i}`}>
                      {claim.text} <span className="font-mono text-xs text-accent-700">{claim.citations.map((x) => x.label).join(", ")}</span>
                    </li>
                  )),
                )}
              </ul>
            ) : (
              <p className="mt-1 text-sm text-muted">{c.message ?? "No claims."}</p>
            )}
            <details open className="mt-4">
              <summary className="cursor-pointer text-sm font-medium text-accent-700">The exact request</summary>
              {c.request ? (
                <RequestMessages messages={c.request} className="mt-2" />
              ) : (
                <p className="mt-2 text-sm text-muted">
                  {c.status === "insufficient_evidence"
                    ? "None was sent: no retrieved passage reached the answer floor, so the pipeline declined before generating."
                    : "None was sent: the run stopped before generating."}
                </p>
              )}
            </details>
            <Link href={`/courses/${encodeURIComponent(courseSlug)}/traces/${encodeURIComponent(c.traceId)}`} className="mt-4 inline-block text-sm text-accent-700 hover:underline">
              Open its trace →
            </Link>
          </article>
        ))}
      </div>
    </div>
  );
}
