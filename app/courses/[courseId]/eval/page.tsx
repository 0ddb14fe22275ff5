import type { Metadata } from "next";
import Link from "next/link";
import { RunsOverTime } from "@/components/eval/charts";
import { NewSetForm, RunForm } from "@/components/eval/eval-forms";
import { HeadRow } from "@/components/eval/head-row";
import { kindLabel } from "@/components/eval/run-kind";
import { StatusBadge } from "@/components/trace/status-badge";
import { Section } from "@/components/trace/trace-view";
import { getDb } from "@/lib/db/client";
import { listEvalRuns, listGoldenSets } from "@/lib/db/queries/golden";
import type { Headline } from "@/lib/eval/set-metrics";
import { CHUNK_SIZES, defaultRunConfig } from "@/lib/server/evaluation";
import { getCourseTrace } from "@/lib/server/traces";
import { SiteHeader } from "@/components/ui/site-header";
import { StatCards } from "@/components/ui/stat-cards";
import { requirePageCourse } from "@/lib/server/page-auth";
import { courseAnswerStats } from "@/lib/server/traces";

export const metadata: Metadata = { title: "Evaluation" };

const ms = (v: number | null) => (v === null ? "—" : `${Math.round(v)} ms`);

const when = (d: Date) => d.toISOString().slice(0, 16).replace("T", " ");
const pct = (v: number | null | undefined) => (v === null || v === undefined ? "—" : `${Math.round(v * 100)}%`);

/**
 * How the assistant has been doing in this course: from the traces of its answers (how often it
 * answered, declined or failed, and how fast), and against the course's golden sets (evaluation
 * runs, A/B, the chunk-size experiment). `?promote=<trace>` offers a student question to a set.
 * Instructors only.
 */
export default async function EvalPage({ params, searchParams }: { params: Promise<{ courseId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { course, user, role } = await requirePageCourse((await params).courseId, "eval", "instructor");
  const { promote } = await searchParams;
  const stats = await courseAnswerStats(course.id);
  const { db } = await getDb();
  const sets = await listGoldenSets(db, { courseId: course.id });
  const runs = await listEvalRuns(db, { courseId: course.id, limit: 50 });
  const defaults = await defaultRunConfig(db, course.id);
  const promoted = typeof promote === "string" ? await getCourseTrace(course.id, promote) : null;
  const base = `/courses/${encodeURIComponent(course.slug)}/eval`;
  const headlinesOf = (r: (typeof runs)[number]) => (r.headlines ? (JSON.parse(r.headlines) as Headline[]) : []);
  // One set's runs: figures of different sets are not comparable, so the chart follows the set run last.
  const charted = runs.find((r) => r.kind === "single" && r.status === "done")?.setName;
  const overTime = runs
    .filter((r) => r.kind === "single" && r.status === "done" && r.setName === charted)
    .reverse()
    .map((r) => ({ label: when(r.createdAt).slice(5), headline: headlinesOf(r)[0] }))
    .filter((p) => p.headline);
  const share = (n: number) => (stats.questions ? `${Math.round((100 * n) / stats.questions)}%` : "—");
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="eval" role={role} user={{ name: user.name, email: user.email }} />
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
        <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Evaluation</h1>
        <p className="mt-2 max-w-2xl text-base leading-relaxed text-muted">
          What the last {stats.questions} answers in this course add up to. Many declined questions usually mean material is missing from the
          documents; validation failures and errors point at the model or the search.
        </p>
        <StatCards
          testId="eval-stats"
          stats={[
            ["Questions", String(stats.questions)],
            ["Median time to answer", ms(stats.medianTotalMs)],
            ["Median time to first claim", ms(stats.medianFirstClaimMs)],
          ]}
        />
        <div className="mt-6 rounded-2xl border border-line bg-surface p-5 sm:p-6">
          <h2 className="text-base font-semibold text-ink">Outcomes</h2>
          <div className="mt-3 overflow-x-auto">
            <table className="w-full min-w-[30rem] text-sm" data-testid="eval-outcomes">
              <thead>
                <tr className="text-left text-xs text-muted">
                  <th className="py-2 pr-3 font-medium">Outcome</th>
                  <th className="py-2 pr-3 text-right font-medium">Answers</th>
                  {/* Claims are published as each passes validation, so this is what a student waited before reading anything. */}
                  <th className="py-2 pr-3 text-right font-medium">Time to first claim (median)</th>
                  <th className="py-2 text-right font-medium">Time to answer (median)</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {Object.entries(stats.byStatus)
                  .sort((a, b) => b[1].answers - a[1].answers)
                  .map(([status, s]) => (
                    <tr key={status} data-testid="eval-outcome" data-status={status}>
                      <td className="py-2 pr-3">
                        <StatusBadge status={status} />
                      </td>
                      <td className="py-2 pr-3 text-right font-mono text-ink-soft">
                        {s.answers} · {share(s.answers)}
                      </td>
                      <td className="py-2 pr-3 text-right font-mono text-ink-soft" data-testid="eval-first-claim">
                        {ms(s.medianFirstClaimMs)}
                      </td>
                      <td className="py-2 text-right font-mono text-ink-soft">{ms(s.medianTotalMs)}</td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </div>
          {stats.questions === 0 ? <p className="text-sm text-muted">No questions yet.</p> : null}
          <p className="mt-4 text-sm text-muted">
            {stats.retried} answer(s) needed the one retry after a citation problem. 95th percentile time to answer: {ms(stats.p95TotalMs)}.
          </p>
        </div>

        <h2 className="mt-14 text-xl font-semibold tracking-tight text-ink">Golden sets</h2>
        <p className="mt-1 max-w-2xl text-sm text-muted">
          Questions with the answer they should get and the passages that hold it. Run a set to measure retrieval and answers against them; compare two
          configurations; find the chunk size and answer floor that suit the notes.
        </p>
        {promoted ? (
          <div className="mt-4 rounded-2xl bg-accent-50 px-5 py-4 ring-1 ring-inset ring-accent-200" data-testid="promote">
            <p className="text-sm text-ink">
              Add “{promoted.question}” to a golden set:
            </p>
            <ul className="mt-2 flex flex-wrap gap-2">
              {sets.map((s) => (
                <li key={s.id}>
                  <Link href={`${base}/sets/${encodeURIComponent(s.id)}?trace=${encodeURIComponent(promoted.id)}`} className="rounded-md bg-surface px-3 py-1 text-sm font-medium text-accent-700 ring-1 ring-inset ring-accent-200 hover:bg-accent-50">
                    {s.name}
                  </Link>
                </li>
              ))}
            </ul>
            {sets.length === 0 ? <p className="mt-1 text-sm text-muted">Create a set below first.</p> : null}
          </div>
        ) : null}
        <div className="mt-4 rounded-2xl border border-line bg-surface p-5 sm:p-6">
          <ul className="divide-y divide-line" data-testid="golden-sets">
            {sets.map((s) => (
              <li key={s.id} data-testid="golden-set" className="flex flex-wrap items-center gap-3 py-2.5">
                <Link href={`${base}/sets/${encodeURIComponent(s.id)}`} className="font-medium text-accent-700 hover:underline">
                  {s.name}
                </Link>
                <span className="text-sm text-muted">{s.questions} questions</span>
                <a href={`/api/courses/${encodeURIComponent(course.slug)}/golden-sets/${encodeURIComponent(s.id)}/export`} download className="ml-auto text-sm text-ink-soft hover:text-ink">
                  Export JSONL
                </a>
              </li>
            ))}
          </ul>
          {sets.length === 0 ? <p className="text-sm text-muted">No golden set yet.</p> : null}
          <div className="mt-4 border-t border-line pt-4">
            <NewSetForm courseSlug={course.slug} />
          </div>
        </div>

        <div className="mt-6">
          <Section title="Run an evaluation" note="Every question of the set through the live pipeline with the settings given; nothing is stored as an answer. The run is kept with its settings.">
            <RunForm courseSlug={course.slug} sets={sets} defaults={defaults} chunkSizes={CHUNK_SIZES} />
          </Section>
        </div>

        <div className="mt-6">
          <Section title="Runs" note={charted ? `Newest first. The chart draws the one-configuration runs of set “${charted}” over time, the set run last.` : "Newest first."}>
            {overTime.length ? <RunsOverTime points={overTime} /> : null}
            <div className="-mx-2 mt-4 overflow-x-auto">
              <table className="w-full min-w-[40rem] text-sm" data-testid="eval-runs">
                <HeadRow labels={["Started (UTC)", "Set", "Run", "Status", "Hit@k", "Recall@k", "Correct", "Abstention"]} />
                <tbody className="divide-y divide-line">
                  {runs.map((r) => {
                    const [h] = headlinesOf(r);
                    return (
                      <tr key={r.id} data-testid="eval-run">
                        <td className="px-2 py-1.5">
                          <Link href={`${base}/runs/${encodeURIComponent(r.id)}`} className="text-accent-700 hover:underline">
                            {when(r.createdAt)}
                          </Link>
                        </td>
                        <td className="px-2 py-1.5 text-ink-soft">{r.setName}</td>
                        <td className="px-2 py-1.5 text-ink-soft">{kindLabel[r.kind]}</td>
                        <td className="px-2 py-1.5 text-ink-soft">{r.status === "running" ? `running ${r.progress}/${r.total}` : r.status}</td>
                        {(["hitAtK", "recallAtK", "answerCorrectness", "abstentionRate"] as const).map((k) => (
                          <td key={k} className="px-2 py-1.5 font-mono">
                            {r.kind === "chunk_sizes" ? "—" : pct(h?.[k])}
                          </td>
                        ))}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              {runs.length === 0 ? <p className="px-2 text-sm text-muted">No run yet.</p> : null}
            </div>
          </Section>
        </div>
      </main>
    </>
  );
}
