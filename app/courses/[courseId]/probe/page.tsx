import type { Metadata } from "next";
import Link from "next/link";
import { Probe, type ProbeResultData } from "@/components/workbench/probe";
import { questionParam, WorkbenchFrame, type WorkbenchPageProps } from "@/components/workbench/workbench-frame";
import { getDb } from "@/lib/db/client";
import { getProbeRun } from "@/lib/db/queries/golden";
import { requirePageCourse } from "@/lib/server/page-auth";
import { courseProbes } from "@/lib/server/workbench";

export const metadata: Metadata = { title: "Evidence probe" };

const verdictText: Record<string, string> = {
  answered: "Answered",
  retrieval_miss: "Retrieval miss",
  packing_loss: "Packing loss",
  generation_failure: "Generation failure",
  inconclusive: "Inconclusive",
};

/** The evidence-substitution probe; `?q=` starts from a question, `?probe=` opens a stored probe. Instructors only. */
export default async function ProbePage({ params, searchParams }: WorkbenchPageProps) {
  const access = await requirePageCourse((await params).courseId, "probe", "instructor");
  const query = await searchParams;
  const { db } = await getDb();
  const stored = typeof query.probe === "string" ? await getProbeRun(db, { courseId: access.course.id, probeId: query.probe }) : undefined;
  const earlier = await courseProbes(access.course.id);
  const base = `/courses/${encodeURIComponent(access.course.slug)}/probe`;
  return (
    <WorkbenchFrame
      access={access}
      tool="probe"
      intro="Why was a question not answered? Run it three times, changing only the context: what retrieval found, passages you pick, and nothing. If your passages answer and retrieval’s do not, the search or packing lost the evidence; if neither does, the notes or the generator are the problem."
    >
      <Probe
        key={stored?.id ?? "new"}
        courseSlug={access.course.slug}
        initialQuestion={stored?.question ?? questionParam(query.q) ?? ""}
        initialResult={stored ? (stored.conditions as ProbeResultData) : null}
      />
      {earlier.length ? (
        <section className="mt-10" aria-labelledby="earlier-probes">
          <h2 id="earlier-probes" className="text-lg font-semibold tracking-tight text-ink">
            Earlier probes
          </h2>
          <ul className="mt-3 divide-y divide-line rounded-2xl border border-line bg-surface" data-testid="probe-history">
            {earlier.map((p) => (
              <li key={p.id} className="flex flex-col gap-1 px-5 py-3 sm:flex-row sm:items-baseline sm:gap-4">
                <span className="w-36 shrink-0 text-sm font-medium text-ink">{verdictText[p.verdict] ?? p.verdict}</span>
                <Link href={`${base}?probe=${encodeURIComponent(p.id)}`} className="min-w-0 flex-1 truncate text-[15px] text-accent-700 hover:underline" title={p.summary}>
                  {p.question}
                </Link>
                <time className="shrink-0 text-xs text-muted" dateTime={p.createdAt.toISOString()}>
                  {p.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC
                </time>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </WorkbenchFrame>
  );
}
