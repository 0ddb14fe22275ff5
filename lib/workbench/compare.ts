/**
 * Two runs of one question side by side (the knob playground): what each retrieved, what the
 * gate and packing did with every passage, which claims each made, and where they differ.
 */
import type { Answer, PackDecisionKind, TraceRecord } from "@/lib/rag/pipeline";

/** The settings the playground turns, and the range each may take. */
export const knobLimits = {
  k: { min: 1, max: 30, step: 1 },
  // The shipped floor is the median of the folds' floors, a half-step of their 0.01 grid when their number is even (0.225).
  minScore: { min: 0, max: 1, step: 0.005 },
  maxPassages: { min: 1, max: 20, step: 1 },
  contextWindow: { min: 512, max: 200_000, step: 256 },
} as const;
export type Knobs = Record<keyof typeof knobLimits, number>;

export interface PlaygroundRun {
  trace: TraceRecord;
  answer: Answer;
}

/** What happened to one passage in one run. */
export interface PassageFate {
  rank: number;
  /** The answer score the gate read (null when the run stopped before the gate). */
  score: number | null;
  /** below_floor: the gate held it back; otherwise packing's decision. */
  decision: PackDecisionKind | "below_floor";
  /** S1… when it was sent. */
  label: string | null;
}

export interface PassageRow {
  chunkId: string;
  documentTitle: string;
  pdfPage: number;
  /** The original run's fate and the variant's; null where that run did not retrieve it. */
  fates: [PassageFate | null, PassageFate | null];
  /** Retrieved by one run only, or treated differently (held back, dropped, sent). */
  changed: boolean;
}

export interface ClaimRow {
  ask: string;
  text: string;
  /** Made by the original run, by the variant. */
  made: [boolean, boolean];
}

export interface RunComparison {
  passages: PassageRow[];
  claims: ClaimRow[];
  statusChanged: boolean;
}

function fates(trace: TraceRecord): Map<string, { fate: PassageFate; documentTitle: string; pdfPage: number }> {
  const scores = new Map(trace.gate?.scores.map((s) => [s.chunkId, s.score]) ?? []);
  const decisions = new Map(trace.packing?.decisions.map((d) => [d.chunkId, d.decision]) ?? []);
  const labels = new Map(trace.packing?.selected.map((s) => [s.chunkId, s.label]) ?? []);
  return new Map(
    (trace.retrieval?.hits ?? []).map((h) => [
      h.chunkId,
      {
        documentTitle: h.documentTitle,
        pdfPage: h.pdfPage,
        fate: {
          rank: h.rank,
          score: scores.get(h.chunkId) ?? null,
          // Packing decides on exactly the passages the gate let through.
          decision: decisions.get(h.chunkId) ?? "below_floor",
          label: labels.get(h.chunkId) ?? null,
        },
      },
    ]),
  );
}

const claimKey = (ask: string, text: string) => `${ask.trim().toLowerCase()}\n${text.trim().toLowerCase()}`;

/** The original run against the variant: every passage either retrieved, every claim either made. */
export function compareRuns(original: PlaygroundRun, variant: PlaygroundRun): RunComparison {
  const a = fates(original.trace);
  const b = fates(variant.trace);
  const passages: PassageRow[] = [...new Set([...a.keys(), ...b.keys()])].map((chunkId) => {
    const [x, y] = [a.get(chunkId), b.get(chunkId)];
    const about = (x ?? y)!;
    return {
      chunkId,
      documentTitle: about.documentTitle,
      pdfPage: about.pdfPage,
      fates: [x?.fate ?? null, y?.fate ?? null],
      changed: !x || !y || x.fate.decision !== y.fate.decision,
    };
  });
  passages.sort((p, q) => Math.min(p.fates[0]?.rank ?? Infinity, p.fates[1]?.rank ?? Infinity) - Math.min(q.fates[0]?.rank ?? Infinity, q.fates[1]?.rank ?? Infinity));

  const claims = new Map<string, ClaimRow>();
  for (const [side, run] of [original, variant].entries()) {
    for (const part of run.answer.parts) {
      for (const claim of part.claims) {
        const key = claimKey(part.ask, claim.text);
        const row = claims.get(key) ?? { ask: part.ask, text: claim.text, made: [false, false] };
        row.made[side] = true;
        claims.set(key, row);
      }
    }
  }
  return { passages, claims: [...claims.values()], statusChanged: original.answer.status !== variant.answer.status };
}
