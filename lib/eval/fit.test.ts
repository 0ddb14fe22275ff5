import { describe, expect, it } from "vitest";
import { featureNames } from "@/lib/rag/extractive/features";
import { crossValidate, fitLogistic, fitRanking, objective, type Example, type Tally, shippedFloor } from "./fit";

/** Separable data: y = 1 exactly when the first input is positive; the second input is noise. */
const rows = Array.from({ length: 40 }, (_, i) => {
  const a = (i % 20) / 5 - 1.9; // -1.9 … 1.9, never 0
  const b = ((i * 7) % 11) / 5 - 1;
  return { x: [a, b], y: a > 0 ? 1 : 0 };
});

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

describe("fitLogistic", () => {
  it("recovers the sign of the informative weight and classifies the data", () => {
    const { bias, w } = fitLogistic(rows, 2);
    expect(w).toHaveLength(2);
    expect(w[0]).toBeGreaterThan(1);
    expect(Math.abs(w[1])).toBeLessThan(Math.abs(w[0]) / 4);
    for (const { x, y } of rows) expect(sigmoid(bias + w[0] * x[0] + w[1] * x[1]) > 0.5 ? 1 : 0).toBe(y);
  });

  it("flips the sign when the labels flip", () => {
    const { w } = fitLogistic(
      rows.map((r) => ({ ...r, y: 1 - r.y })),
      2,
    );
    expect(w[0]).toBeLessThan(-1);
  });

  it("shrinks the weights with a larger ridge", () => {
    expect(Math.abs(fitLogistic(rows, 2, 10).w[0])).toBeLessThan(Math.abs(fitLogistic(rows, 2, 1).w[0]));
  });

  it("returns identical numbers on two runs", () => {
    expect(fitLogistic(rows, 2)).toEqual(fitLogistic(rows, 2));
  });
});

describe("the floor's objective", () => {
  const tallies = (course: Partial<Tally>, squad: Partial<Tally> = {}) => {
    const empty: Tally = { answerable: 0, right: 0, unanswerable: 0, declined: 0, withheld: 0, withheldDeclined: 0 };
    return { course: { ...empty, ...course }, squad: { ...empty, ...squad } };
  };

  it("counts the course questions that come out right, answered or declined, each alike", () => {
    expect(objective(tallies({ answerable: 30, right: 20, unanswerable: 10, declined: 6 }))).toBeCloseTo(26 / 40);
    // Declining one more unanswerable question is worth exactly one answerable question answered right.
    expect(objective(tallies({ answerable: 30, right: 19, unanswerable: 10, declined: 7 }))).toBe(objective(tallies({ answerable: 30, right: 20, unanswerable: 10, declined: 6 })));
    expect(objective(tallies({}))).toBe(1);
  });

  it("leaves SQuAD and the gold-withheld copies out", () => {
    const course = { answerable: 30, right: 20, unanswerable: 10, declined: 6 };
    expect(objective(tallies({ ...course, withheld: 30, withheldDeclined: 2 }, { answerable: 100, right: 90, unanswerable: 100, declined: 1 }))).toBe(objective(tallies(course)));
  });
});

describe("fitRanking", () => {
  // Each question: one positive unit with a high first feature, negatives with a high second one.
  const questions = Array.from({ length: 12 }, (_, q) => [
    { x: [0.6 + (q % 3) * 0.1, 0.2, 0.5], label: false },
    { x: [0.9, 0.1 + (q % 4) * 0.05, 0.5], label: true },
    { x: [0.1, 0.8, 0.5], label: false },
    { x: [0.3, 0.6 - (q % 2) * 0.2, 0.5], label: false },
  ]);
  const score = (w: number[], x: number[]) => x.reduce((s, v, i) => s + v * w[i], 0);

  it("scores the positive unit of every question above its negatives", () => {
    const w = fitRanking(questions, 3);
    expect(w).toHaveLength(3);
    expect(w[0]).toBeGreaterThan(0);
    expect(w[1]).toBeLessThan(0);
    for (const units of questions) {
      const pos = units.find((u) => u.label)!;
      for (const neg of units.filter((u) => !u.label)) expect(score(w, pos.x)).toBeGreaterThan(score(w, neg.x));
    }
  });

  it("gives a feature that is the same on every unit no weight", () => {
    expect(fitRanking(questions, 3)[2]).toBeCloseTo(0, 10);
  });

  it("weighs a question by its weight, as if it were there that many times", () => {
    const twice = fitRanking([...questions, questions[0]], 3);
    const weighted = fitRanking(questions, 3, undefined, questions.map((_, q) => (q === 0 ? 2 : 1)));
    weighted.forEach((v, i) => expect(v).toBeCloseTo(twice[i], 8));
    expect(weighted).not.toEqual(fitRanking(questions, 3));
  });

  it("ignores questions without a positive unit and is deterministic", () => {
    const unanswerable = [
      { x: [1, 0, 0], label: false },
      { x: [0, 1, 0], label: false },
    ];
    expect(fitRanking([...questions, unanswerable], 3)).toEqual(fitRanking(questions, 3));
  });

  it("reaches the maximum of the penalised likelihood where a full Newton step would overshoot it", () => {
    // One feature marks the answer everywhere (and a wrong unit too in a quarter of the questions), a rare one a wrong unit strongly; many empty units.
    const hard = Array.from({ length: 40 }, (_, q) => [
      { x: [1, 0], label: true },
      { x: [q % 4 === 0 ? 1 : 0, q % 10 === 0 ? 8 : 0], label: false },
      ...Array.from({ length: 30 }, () => ({ x: [0, 0], label: false })),
    ]);
    const ridge = 1e-3;
    const logLikelihood = (w: number[]) =>
      hard.reduce((total, units) => {
        const s = units.map((u) => u.x[0] * w[0] + u.x[1] * w[1]);
        const logSum = (keep: (i: number) => boolean) => Math.log(s.reduce((a, v, i) => a + (keep(i) ? Math.exp(v) : 0), 0));
        return total + logSum((i) => units[i].label) - logSum(() => true);
      }, 0) - (ridge / 2) * (w[0] ** 2 + w[1] ** 2);
    const w = fitRanking(hard, 2, ridge);
    const best = logLikelihood(w);
    for (const [i, d] of [[0, 0.01], [0, -0.01], [1, 0.01], [1, -0.01]]) expect(logLikelihood(w.map((v, k) => (k === i ? v + d : v)))).toBeLessThan(best);
  });
});

describe("crossValidate", () => {
  const dims = featureNames.length;
  const cover = featureNames.indexOf("cover");
  const unit = (c: number, label: boolean, passage: number) => {
    const x = new Array<number>(dims).fill(0);
    x[cover] = c;
    return { x, label, passage, start: passage * 100, end: passage * 100 + 10 };
  };
  /** Answerable: one unit covers the question and holds the answer. Unanswerable: nothing covers it. */
  const example = (group: string, dataset: Example["dataset"], answerable: boolean, k: number): Example => ({
    group,
    dataset,
    answerable,
    answerType: "general",
    units: answerable ? [unit(0.9 + k * 0.01, true, 0), unit(0.2, false, 1), unit(0.1, false, 2)] : [unit(0.15 + k * 0.01, false, 0), unit(0.1, false, 1)],
  });
  const examples: Example[] = [
    ...[0, 1, 2, 3].map((k) => example("course:a", "course", true, k)),
    ...[0, 1].map((k) => example("course:a", "course", false, k)),
    ...[0, 1, 2].map((k) => example("squad:b", "squad", true, k)),
    ...[0, 1, 2].map((k) => example("squad:b", "squad", false, k)),
  ];

  it("leaves each of the 2 groups out once and tallies every question once", () => {
    const cv = crossValidate(examples, 0.9);
    expect(cv.folds.map((f) => f.group)).toEqual(["course:a", "squad:b"]);
    for (const f of cv.folds) {
      expect(f.floor).toBeGreaterThanOrEqual(0.02);
      expect(f.floor).toBeLessThanOrEqual(0.92);
    }
    expect(cv.course.answerable + cv.course.unanswerable).toBe(6);
    expect(cv.squad.answerable + cv.squad.unanswerable).toBe(6);
    expect([cv.course.answerable, cv.course.unanswerable, cv.squad.answerable, cv.squad.unanswerable]).toEqual([4, 2, 3, 3]);
    for (const t of [cv.course, cv.squad]) {
      expect(t.right).toBeGreaterThanOrEqual(0);
      expect(t.right).toBeLessThanOrEqual(t.answerable);
      // The answer unit is always the best-covering one: every answerable question left out is answered right.
      expect(t.right).toBe(t.answerable);
      expect(t.declined).toBeGreaterThanOrEqual(0);
      expect(t.declined).toBeLessThanOrEqual(t.unanswerable);
    }
  });

  it("tallies the ranking alone with no floor: nothing declined, the first-ranked unit judged", () => {
    const cv = crossValidate(examples, 0.9);
    expect(cv.ranked.course).toEqual({ answerable: 4, right: 4, unanswerable: 2, declined: 0, withheld: 0, withheldDeclined: 0 });
    expect(cv.ranked.squad).toEqual({ answerable: 3, right: 3, unanswerable: 3, declined: 0, withheld: 0, withheldDeclined: 0 });
  });

  it("decides every fold again at the shipped floor, the median of the course folds'", () => {
    const cv = crossValidate(examples, 0.9);
    expect(cv.atShipped.course.answerable + cv.atShipped.course.unanswerable).toBe(6);
    expect(cv.atShipped.squad.answerable + cv.atShipped.squad.unanswerable).toBe(6);
    // One course fold: its own floor is the shipped one, so its questions are decided as before.
    expect(cv.atShipped.course).toEqual(cv.course);
    // The SQuAD fold is decided at the course fold's floor: its answers (0.9 and more) clear it.
    expect(shippedFloor(cv.folds)).toBe(cv.folds[0].floor);
    expect(cv.atShipped.squad.right).toBe(3);
  });

  it("tallies questions asked with their gold pages withheld apart, and fits nothing on them", () => {
    // The answerable questions again without their gold page: only a unit covering less than an unanswerable question's is left.
    const withheld = examples.filter((e) => e.answerable).map((e): Example => ({ ...e, answerable: false, withheld: true, units: [unit(0.1, false, 1)] }));
    const plain = crossValidate(examples, 0.9);
    const cv = crossValidate([...examples, ...withheld], 0.9);
    expect([cv.course.withheld, cv.squad.withheld]).toEqual([4, 3]);
    expect([cv.course.unanswerable, cv.squad.unanswerable]).toEqual([2, 3]);
    // The SQuAD group's fold has a floor that declines the course's unanswerable questions; it declines these, which cover less.
    expect(cv.squad.withheldDeclined).toBe(3);
    expect(cv.folds).toEqual(plain.folds);
    expect({ ...cv.course, withheld: 0, withheldDeclined: 0 }).toEqual(plain.course);
  });

  it("is deterministic", () => {
    expect(crossValidate(examples, 0.9)).toEqual(crossValidate(examples, 0.9));
  });
});

describe("shippedFloor", () => {
  it("is the median of the course folds' floors; the SQuAD folds do not set it", () => {
    const folds = [
      { group: "course:a", floor: 0.24 },
      { group: "course:b", floor: 0.27 },
      { group: "course:c", floor: 0.25 },
      { group: "squad:x", floor: 0.12 },
      { group: "squad:y", floor: 0.13 },
    ];
    expect(shippedFloor(folds)).toBe(0.25);
    expect(shippedFloor([...folds, { group: "course:d", floor: 0.3 }])).toBe(0.26);
    expect(shippedFloor([...folds, { group: "course:d", floor: 0.26 }])).toBe(0.255);
  });
});
