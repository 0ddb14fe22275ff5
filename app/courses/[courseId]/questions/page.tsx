import type { Metadata } from "next";
import Link from "next/link";
import { SiteHeader } from "@/components/ui/site-header";
import { StatCards } from "@/components/ui/stat-cards";
import { TermChips } from "@/components/workbench/term-chips";
import { requirePageCourse } from "@/lib/server/page-auth";
import { courseQuestions } from "@/lib/server/workbench";
import { topicLabel } from "@/lib/workbench/topics";

export const metadata: Metadata = { title: "Questions" };

const pct = (share: number) => `${Math.round(share * 100)}%`;

/**
 * What the course's students ask, grouped by topic, and the gaps in the notes their questions
 * found: declined questions and the missing parts of partial answers. Students are not named.
 * Instructors only.
 */
export default async function QuestionsPage({ params }: { params: Promise<{ courseId: string }> }) {
  const { course, user, role } = await requirePageCourse((await params).courseId, "questions", "instructor");
  const { overview } = await courseQuestions(course.id);
  const base = `/courses/${encodeURIComponent(course.slug)}`;
  const gapCount = overview.gaps.reduce((n, g) => n + g.items.length, 0);
  return (
    <>
      <SiteHeader course={{ slug: course.slug, title: course.title }} active="questions" role={role} user={{ name: user.name, email: user.email }} />
      <main className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Questions</h1>
            <p className="mt-2 max-w-2xl text-base leading-relaxed text-muted">
              What students have asked in this course, grouped by the key terms the questions share, and where the notes fell short. Students are
              never named here.
            </p>
          </div>
          <a
            href={`/api/courses/${encodeURIComponent(course.slug)}/questions/csv`}
            download
            className="inline-flex shrink-0 items-center justify-center rounded-lg border border-line-strong bg-surface px-4 py-2 text-sm font-medium text-ink shadow-sm transition hover:bg-canvas"
          >
            Download CSV
          </a>
        </div>

        {overview.total === 0 ? (
          <p className="mt-10 rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-12 text-center text-sm text-muted">
            No student has asked a question in this course yet.
          </p>
        ) : (
          <>
            <StatCards
              testId="question-stats"
              className="sm:grid-cols-4"
              stats={[
                ["Questions", String(overview.total)],
                ["Declined", pct(overview.declined / overview.total)],
                ["Answered in part", pct(overview.partial / overview.total)],
                ["Gaps in the notes", String(gapCount)],
              ]}
            />

            <section className="mt-10" aria-labelledby="topics-heading">
              <h2 id="topics-heading" className="text-lg font-semibold tracking-tight text-ink">
                Topics
              </h2>
              <p className="mt-1 text-sm text-muted">Declined: no passage in the notes supported an answer. Answered in part: some part of the question was not covered.</p>
              <ul className="mt-4 divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface" data-testid="topic-list">
                {overview.topics.map((t) => (
                  <li key={topicLabel(t.terms)} data-testid="topic" className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:gap-6">
                    <div className="min-w-0 flex-1">
                      <TermChips terms={t.terms} none="Asked once: no terms shared with other questions" />
                      <ul className="mt-2 space-y-1 text-[15px] text-ink-soft">
                        {t.samples.map((s) => (
                          <li key={s} className="truncate" title={s}>
                            “{s}”
                          </li>
                        ))}
                      </ul>
                    </div>
                    <dl className="grid shrink-0 grid-cols-3 gap-4 text-right text-sm sm:w-72">
                      {[
                        ["Asked", String(t.count)],
                        ["Declined", pct(t.declinedShare)],
                        ["In part", pct(t.partialShare)],
                      ].map(([label, value]) => (
                        <div key={label}>
                          <dt className="text-xs text-muted">{label}</dt>
                          <dd className="font-mono text-ink">{value}</dd>
                        </div>
                      ))}
                    </dl>
                  </li>
                ))}
              </ul>
            </section>

            <section className="mt-10" aria-labelledby="gaps-heading">
              <h2 id="gaps-heading" className="text-lg font-semibold tracking-tight text-ink">
                Gaps in the notes
              </h2>
              <p className="mt-1 text-sm text-muted">
                Questions declined for lack of evidence, and the parts of partial answers the notes did not cover. Test one to see whether the notes
                lack it or the search missed it.
              </p>
              {gapCount === 0 ? (
                <p className="mt-4 rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-8 text-center text-sm text-muted">
                  No gaps so far: every question found supporting passages.
                </p>
              ) : (
                <div className="mt-4 space-y-4" data-testid="gap-list">
                  {overview.gaps.map((g) => (
                    <div key={topicLabel(g.terms)} data-testid="gap-group" className="rounded-2xl border border-line bg-surface">
                      <div className="flex items-center justify-between gap-3 border-b border-line px-5 py-3">
                        <TermChips terms={g.terms} none="Unrelated: no terms shared with other gaps" />
                        <span className="text-xs text-muted">{g.items.length === 1 ? "1 gap" : `${g.items.length} gaps`}</span>
                      </div>
                      <ul className="divide-y divide-line">
                        {g.items.map((gap, i) => (
                          <li key={`${gap.traceId}:${i}`} data-testid="gap" className="flex flex-col gap-2 px-5 py-3 sm:flex-row sm:items-center sm:gap-4">
                            <div className="min-w-0 flex-1">
                              <p className="text-[15px] text-ink">{gap.text}</p>
                              <p className="mt-0.5 text-xs text-muted">
                                {gap.kind === "declined" ? "Declined: no supporting passage" : `The missing part of “${gap.question}”`}
                              </p>
                              {gap.why ? (
                                <p data-testid="gap-why" className="mt-0.5 text-sm text-ink-soft">
                                  {gap.why}
                                </p>
                              ) : null}
                            </div>
                            <div className="flex shrink-0 gap-2 text-sm">
                              <Link
                                href={`${base}/playground?trace=${encodeURIComponent(gap.traceId)}&q=${encodeURIComponent(gap.text)}`}
                                className="rounded-md px-2.5 py-1 font-medium text-accent-700 ring-1 ring-inset ring-accent-200 transition hover:bg-accent-50"
                              >
                                Test in playground
                              </Link>
                              <Link
                                href={`${base}/probe?q=${encodeURIComponent(gap.text)}`}
                                className="rounded-md px-2.5 py-1 text-ink-soft ring-1 ring-inset ring-line-strong transition hover:bg-canvas"
                              >
                                Probe
                              </Link>
                              <Link
                                href={`${base}/eval?promote=${encodeURIComponent(gap.traceId)}`}
                                className="rounded-md px-2.5 py-1 text-ink-soft ring-1 ring-inset ring-line-strong transition hover:bg-canvas"
                              >
                                Add to golden set
                              </Link>
                            </div>
                          </li>
                        ))}
                      </ul>
                    </div>
                  ))}
                </div>
              )}
            </section>
          </>
        )}
      </main>
    </>
  );
}
