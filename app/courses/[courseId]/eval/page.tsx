import type { Metadata } from "next";
import { StatusBadge } from "@/components/trace/status-badge";
import { SiteHeader } from "@/components/ui/site-header";
import { StatCards } from "@/components/ui/stat-cards";
import { requirePageCourse } from "@/lib/server/page-auth";
import { courseAnswerStats } from "@/lib/server/traces";

export const metadata: Metadata = { title: "Evaluation" };

const ms = (v: number | null) => (v === null ? "—" : `${Math.round(v)} ms`);

/**
 * How the assistant has been doing in this course, from the traces of its answers: how often it
 * answered, declined or failed, and how fast. Instructors only.
 */
export default async function EvalPage({ params }: { params: Promise<{ courseId: string }> }) {
  const { course, user, role } = await requirePageCourse((await params).courseId, "eval", "instructor");
  const stats = await courseAnswerStats(course.id);
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
      </main>
    </>
  );
}
