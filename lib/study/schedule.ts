/**
 * Spaced repetition through ts-fsrs (FSRS, the scheduler Anki ships): a card's memory state per
 * student, the next state after a grade, and nothing hand-written about intervals.
 */
import { createEmptyCard, fsrs, Rating, type Card as FsrsCard, type Grade } from "ts-fsrs";

export const grades = ["again", "hard", "good", "easy"] as const;
export type GradeName = (typeof grades)[number];
const ratingOf: Record<GradeName, Grade> = { again: Rating.Again, hard: Rating.Hard, good: Rating.Good, easy: Rating.Easy };

/** The stored state (the reviews table's columns). */
export interface MemoryState {
  due: Date;
  stability: number;
  difficulty: number;
  elapsedDays: number;
  scheduledDays: number;
  learningSteps: number;
  reps: number;
  lapses: number;
  state: number;
  lastReview: Date | null;
}

// Fuzz off: the same grades at the same times give the same schedule (tests, and fairness between students).
const scheduler = fsrs({ enable_fuzz: false });

const toFsrs = (m: MemoryState): FsrsCard => ({
  due: m.due,
  stability: m.stability,
  difficulty: m.difficulty,
  elapsed_days: m.elapsedDays,
  scheduled_days: m.scheduledDays,
  learning_steps: m.learningSteps,
  reps: m.reps,
  lapses: m.lapses,
  state: m.state,
  last_review: m.lastReview ?? undefined,
});

const fromFsrs = (c: FsrsCard): MemoryState => ({
  due: c.due,
  stability: c.stability,
  difficulty: c.difficulty,
  elapsedDays: c.elapsed_days,
  scheduledDays: c.scheduled_days,
  learningSteps: c.learning_steps,
  reps: c.reps,
  lapses: c.lapses,
  state: c.state,
  lastReview: c.last_review ?? null,
});

/** A card never reviewed: due now. */
export const newMemory = (now: Date): MemoryState => fromFsrs(createEmptyCard(now));

/** The state after grading at `now`. */
export function review(state: MemoryState | null, grade: GradeName, now: Date): MemoryState {
  return fromFsrs(scheduler.next(toFsrs(state ?? newMemory(now)), now, ratingOf[grade]).card);
}

/** When each grade would bring the card back, for the buttons' hints. */
export function preview(state: MemoryState | null, now: Date): Record<GradeName, Date> {
  const out = {} as Record<GradeName, Date>;
  for (const g of grades) out[g] = review(state, g, now).due;
  return out;
}
