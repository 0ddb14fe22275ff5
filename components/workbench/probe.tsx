"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { StatusBadge } from "@/components/trace/status-badge";
import { RequestMessages, Section } from "@/components/trace/trace-view";
import { useJsonPost } from "@/components/ui/use-json-post";
import type { ProbeCondition, ProbeConclusion, ProbeConditionKey } from "@/lib/workbench/probe";
import { QuestionField } from "./question-field";

interface FoundPassage {
  chunkId: string;
  documentTitle: string;
  pdfPage: number;
  pageLabel: string | null;
  text: string;
}

const conditionText: Record<ProbeConditionKey, { title: string; note: string }> = {
  retrieved: { title: "Retrieved context", note: "What the live pipeline searched, gated and packed." },
  oracle: { title: "Your passages", note: "The passages you picked, sent in your order." },
  empty: { title: "No context", note: "Not a single passage: it must abstain." },
};

const where = (p: { documentTitle: string; pdfPage: number }) => `${p.documentTitle}, PDF page ${p.pdfPage}`;

/** The searched words worth marking (short ones match everywhere). */
const words = (query: string) => [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])];
const EXCERPT_CHARS = 320;

/** The searched words where a word starts ("late" in "later", not in "calculated"). The words are letters and digits only: nothing in them is regular-expression syntax. */
const wordStarts = (searched: string[]) => new RegExp(`(?<![\\p{L}\\p{N}])(${searched.join("|")})`, "giu");

/** The part of a passage around the first searched word, so a long passage shows why it was found. */
function excerpt(text: string, searched: string[]): string {
  const first = searched.length ? text.search(wordStarts(searched)) : -1;
  const start = first < 0 ? 0 : Math.max(0, text.lastIndexOf(" ", Math.max(0, first - 60)) + 1);
  const cut = text.slice(start, start + EXCERPT_CHARS);
  return `${start > 0 ? "…" : ""}${cut}${start + EXCERPT_CHARS < text.length ? "…" : ""}`;
}

/** Text with the searched words marked, as text (never HTML). */
function Marked({ text, words: marked }: { text: string; words: string[] }) {
  if (marked.length === 0) return <>{text}</>;
  return (
    <>
      {text.split(wordStarts(marked)).map((piece, i) =>
        i % 2 === 1 ? (
          <mark key={i} className="rounded bg-amber-100 px-0.5 text-ink">
            {piece}
          </mark>
        ) : (
          piece
        ),
      )}
    </>
  );
}

/**
 * The evidence-substitution probe: the instructor picks passages that should answer the question;
 * the question runs over the retrieved context, over those passages and over none, and the three
 * requests and outcomes are read together.
 */
export type ProbeResultData = { conditions: ProbeCondition[]; conclusion: ProbeConclusion };

export function Probe({ courseSlug, initialQuestion, initialResult }: { courseSlug: string; initialQuestion: string; initialResult: ProbeResultData | null }) {
  const [question, setQuestion] = useState(initialQuestion);
  const [query, setQuery] = useState(initialQuestion);
  const [found, setFound] = useState<FoundPassage[] | null>(null);
  const [searchError, setSearchError] = useState<string | null>(null);
  const [searched, setSearched] = useState<string[]>([]);
  const [picked, setPicked] = useState<FoundPassage[]>([]);
  const [result, setResult] = useState<ProbeResultData | null>(initialResult);
  const { error, pending, post } = useJsonPost(setResult);
  const api = `/api/courses/${encodeURIComponent(courseSlug)}`;
  const isPicked = (p: FoundPassage) => picked.some((x) => x.chunkId === p.chunkId);

  async function search(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setSearchError(null);
    try {
      const res = await fetch(`${api}/passages?q=${encodeURIComponent(query)}`);
      const data = (await res.json().catch(() => null)) as { passages?: FoundPassage[]; message?: string } | null;
      if (!res.ok || !data?.passages) throw new Error(data?.message ?? "The search failed. Try again.");
      setFound(data.passages);
      setSearched(words(query));
    } catch (err) {
      setSearchError(err instanceof TypeError ? "The server could not be reached. Check your connection and try again." : (err as Error).message);
    }
  }

  function run(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    void post(`${api}/probe`, { question, oracleChunkIds: picked.map((p) => p.chunkId) });
  }

  return (
    <div className="mt-8 space-y-6">
      <Section title="1. Passages that answer it" note="Search the course’s notes and pick the passages a correct answer needs.">
        <form onSubmit={search} role="search" className="flex gap-2" data-testid="passage-search">
          <label htmlFor="passage-query" className="sr-only">
            Search the notes
          </label>
          <input
            id="passage-query"
            type="search"
            required
            maxLength={200}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Words the answer would use"
            className="min-w-0 flex-1 rounded-lg border border-line-strong bg-surface px-3 py-2 text-[15px] text-ink outline-none transition focus:border-accent-500 focus:ring-2 focus:ring-accent-100"
          />
          <button type="submit" className="shrink-0 rounded-lg border border-line-strong bg-surface px-4 py-2 text-sm font-medium text-ink transition hover:bg-canvas">
            Search
          </button>
        </form>
        {searchError ? (
          <p role="alert" className="mt-3 text-sm text-rose-700">
            {searchError}
          </p>
        ) : null}
        {found ? (
          found.length === 0 ? (
            <p className="mt-4 text-sm text-muted">No passage contains these words.</p>
          ) : (
            <ul className="mt-4 divide-y divide-line rounded-xl border border-line" data-testid="search-results">
              {found.map((p) => (
                <li key={p.chunkId} data-testid="search-result" className="flex gap-4 px-4 py-3">
                  <div className="min-w-0 flex-1">
                    <p className="text-xs text-muted">{where(p)}</p>
                    <p className="mt-1 text-sm leading-relaxed text-ink-soft">
                      <Marked text={excerpt(p.text, searched)} words={searched} />
                    </p>
                  </div>
                  <button
                    type="button"
                    onClick={() => setPicked(isPicked(p) ? picked.filter((x) => x.chunkId !== p.chunkId) : [...picked, p])}
                    aria-pressed={isPicked(p)}
                    className={`h-fit shrink-0 rounded-md px-3 py-1 text-sm font-medium ring-1 ring-inset transition ${
                      isPicked(p) ? "bg-accent-600 text-white ring-accent-600 hover:bg-accent-700" : "text-accent-700 ring-accent-200 hover:bg-accent-50"
                    }`}
                  >
                    {isPicked(p) ? "Picked" : "Pick"}
                  </button>
                </li>
              ))}
            </ul>
          )
        ) : null}
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
                  <span className="font-mono text-xs text-muted">S{i + 1}</span> {where(p)} · {excerpt(p.text, searched)}
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
