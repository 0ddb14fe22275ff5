import "server-only";
import { z } from "zod";
import { getDb, type DbHandle } from "@/lib/db/client";
import { saveTrace } from "@/lib/db/queries/answers";
import { listProbeRuns, saveProbeRun } from "@/lib/db/queries/golden";
import { listStudentQuestions } from "@/lib/db/queries/questions";
import { answerWithContext, type AskDeps, type Generator, type Passage } from "@/lib/rag/pipeline";
import { knobLimits, type Knobs, type PlaygroundRun } from "@/lib/workbench/compare";
import { concludeProbe, probeCondition, type ProbeCondition, type ProbeConclusion } from "@/lib/workbench/probe";
import { questionOverview } from "@/lib/workbench/topics";
import { ask, askDeps, defaultAskSettings } from "./ask";
import { courseAskOverrides } from "./evaluation";

/** The instructor's workbench: what students ask, and controlled re-runs of a question. Every run keeps its trace, marked as a workbench run; none is stored as an answer. */

const knob = ({ min, max }: { min: number; max: number }, int: boolean) => (int ? z.number().int() : z.number()).min(min).max(max);
export const knobsSchema = z.object({
  k: knob(knobLimits.k, true),
  minScore: knob(knobLimits.minScore, false),
  maxPassages: knob(knobLimits.maxPassages, true),
  contextWindow: knob(knobLimits.contextWindow, true),
});

export const defaultKnobs: Knobs = {
  k: defaultAskSettings.k,
  minScore: defaultAskSettings.minScore,
  maxPassages: defaultAskSettings.maxPassages,
  contextWindow: defaultAskSettings.contextWindow,
};

/** The settings the course's answers use, as the playground's knobs (the defaults, with the course's own floor). */
export async function courseKnobs(courseId: string): Promise<Knobs> {
  const { db } = await getDb();
  return { ...defaultKnobs, ...(await courseAskOverrides(db, courseId)) };
}

/** The course's probes, newest first. */
export async function courseProbes(courseId: string) {
  const { db } = await getDb();
  return listProbeRuns(db, { courseId, limit: 20 });
}

/** The course's student questions (the latest 1000) and what they add up to. */
export async function courseQuestions(courseId: string) {
  const { db } = await getDb();
  const questions = await listStudentQuestions(db, { courseId, limit: 1000 });
  return { questions, overview: questionOverview(questions) };
}

/** The question with the course's settings and with `knobs`, one after the other (they compete with students' answers for the same CPU). */
export async function runPlayground(
  handle: DbHandle,
  { courseId, question, history, knobs }: { courseId: string; question: string; history: string[]; knobs: Knobs },
  generator?: Generator,
): Promise<{ original: PlaygroundRun; variant: PlaygroundRun }> {
  const input = { courseId, question, history };
  const course = await courseAskOverrides(handle.db, courseId);
  const original = await ask(handle, input, askDeps(handle, courseId, course, generator), { origin: "playground" });
  const variant = await ask(handle, input, askDeps(handle, courseId, { ...course, ...knobs }, generator), { origin: "playground" });
  return { original, variant };
}

/**
 * The evidence-substitution probe: the question through the live pipeline (the retrieved context),
 * then over the passages the instructor picked, then over none, with the same settings and
 * generator. A standalone question: no conversation, so nothing but the context differs. The
 * probe is stored with its three conditions and its conclusion.
 */
export async function runProbe(
  handle: DbHandle,
  { courseId, question, oracle }: { courseId: string; question: string; oracle: Passage[] },
  deps: AskDeps,
): Promise<{ id: string; conditions: ProbeCondition[]; conclusion: ProbeConclusion }> {
  const input = { courseId, question, history: [] };
  const retrieved = await ask(handle, input, deps, { origin: "probe" });
  const given = { oracle: await answerWithContext(input, oracle, deps), empty: await answerWithContext(input, [], deps) };
  for (const { trace } of Object.values(given)) {
    trace.origin = "probe";
    await saveTrace(handle.db, { trace }).catch((e) => console.error(`[probe] trace ${trace.id} not stored:`, (e as Error).message));
  }
  const conditions = [probeCondition("retrieved", retrieved), probeCondition("oracle", given.oracle), probeCondition("empty", given.empty)];
  const conclusion = concludeProbe({ retrieved: retrieved.trace, oracle: given.oracle.trace, empty: given.empty.trace });
  const id = await saveProbeRun(handle.db, { courseId, question, verdict: conclusion.verdict, summary: conclusion.summary, conditions: { conditions, conclusion } });
  return { id, conditions, conclusion };
}
