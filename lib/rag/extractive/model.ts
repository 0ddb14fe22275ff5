/**
 * The answer ranker: a linear ranking score over a unit's features (features.ts) orders the units
 * of a part; a calibration on top turns the score and features of a unit into the probability
 * that quoting it answers the part right. That probability gates passages and decides
 * answer-or-decline. Weights come from `npm run eval -- --fit`
 * (lib/eval/fit.ts), stored in weights.json with their provenance; nothing here is hand-tuned.
 */
import stored from "./weights.json";
import type { AnswerType } from "../lexicon";
import { featureNames, type FeatureName, type Features } from "./features";

export interface ExtractiveModel {
  /** Ranking weights (a conditional logit: only differences between units of one part matter). */
  weights: Record<FeatureName, number>;
  /** probability = sigmoid(bias + scale · rankScore + Σ weights · features), fitted on each question's top unit. */
  calibration: { bias: number; scale: number; weights: Record<FeatureName, number> };
  /** A part is answered only when its best unit's probability reaches this floor; a passage passes the gate when one of its units does. */
  floor: number;
  /** A second claim needs at least this share of the best unit's probability. */
  secondRatio: number;
  provenance: Record<string, unknown>;
}

/**
 * The sentence that continues the best one is shown beside it from this share of the floor, below the
 * second-claim ratio: it reads as the excerpt's continuation, not as another answer. Chosen on
 * the cross-validated figures (so they flatter it a little): shares 0, 0.5 and 1 answer SQuAD 302, 308
 * and 305 of 401, course 133 each (before the place rule of the same round).
 */
export const NEIGHBOUR_FLOOR_SHARE = 0.5;

/** A neighbour shown beside the best unit must say something of the part: a word of it, or a pointer back to the sentence that does ("They …", "However, …"). */
export const bearsOnPart = (f: Pick<Features, "cover" | "coverRelated" | "coverRelated2" | "coverPrevLinked">) => f.cover + f.coverRelated + f.coverRelated2 > 0 || f.coverPrevLinked > 0;

/**
 * A part asking for a kind of value (a phone number, a count, a person, a place) is missing when its best
 * unit states none: the notes speak of the thing, not of what was asked. A lower unit that states one
 * does not stand in: it was another item's value (another event's time), and measured, it answered no
 * development or read question right, one of 520 never-read ones, and eight near-miss questions wrong.
 * A date is exempt: "when should a firm shut down" asks for a condition, and many events are
 * dated by week or session, which no date entity marks. Chosen as a rule, not fitted: on the
 * cross-validated figures it leaves course answers unchanged, costs SQuAD 2 of 401 and declines 7 more
 * of the 177 course questions asked with their gold pages withheld.
 */
export const mustStateType = (type: AnswerType, bestFeatures: Pick<Features, "typeMissing">) => type !== "date" && bestFeatures.typeMissing > 0;

/** The fitted model shipped with the app. */
const complete = (w: Record<string, number>) => Object.fromEntries(featureNames.map((n) => [n, w[n] ?? 0])) as Record<FeatureName, number>;

export const defaultModel: ExtractiveModel = {
  ...stored,
  weights: complete(stored.weights),
  calibration: { ...stored.calibration, weights: complete(stored.calibration.weights) },
};

const linear = (w: Record<FeatureName, number>, f: Features) => featureNames.reduce((z, n) => z + w[n] * f[n], 0);

/** The ranking score: larger is a better answer to the part. */
export const rankScore = (model: Pick<ExtractiveModel, "weights">, f: Features) => linear(model.weights, f);

/** The calibrated probability that quoting this unit answers its part right. */
export function probability(model: Pick<ExtractiveModel, "weights" | "calibration">, f: Features): number {
  const { bias, scale, weights } = model.calibration;
  return 1 / (1 + Math.exp(-(bias + scale * rankScore(model, f) + linear(weights, f))));
}
