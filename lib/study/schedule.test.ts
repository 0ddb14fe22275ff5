import { describe, expect, it } from "vitest";
import { newMemory, preview, review } from "./schedule";

const DAY = 86_400_000;

describe("FSRS scheduling through ts-fsrs", () => {
  const now = new Date("2026-03-02T10:00:00Z");
  it("brings an 'again' card back within minutes and an 'easy' one days later", () => {
    const again = review(null, "again", now);
    const easy = review(null, "easy", now);
    expect(again.due.getTime() - now.getTime()).toBeLessThan(15 * 60_000);
    expect(easy.due.getTime() - now.getTime()).toBeGreaterThanOrEqual(DAY);
    expect(easy.reps).toBe(1);
  });

  it("orders the grades' next due dates again ≤ hard ≤ good ≤ easy", () => {
    const p = preview(null, now);
    expect(p.again.getTime()).toBeLessThanOrEqual(p.hard.getTime());
    expect(p.hard.getTime()).toBeLessThanOrEqual(p.good.getTime());
    expect(p.good.getTime()).toBeLessThan(p.easy.getTime());
  });

  it("grows the interval after repeated good grades and counts a lapse on again", () => {
    let s = review(newMemory(now), "good", now);
    s = review(s, "good", s.due);
    const first = s.due.getTime() - s.lastReview!.getTime();
    s = review(s, "good", s.due);
    expect(s.due.getTime() - s.lastReview!.getTime()).toBeGreaterThan(first);
    const lapsed = review(s, "again", s.due);
    expect(lapsed.lapses).toBe(1);
  });
});
