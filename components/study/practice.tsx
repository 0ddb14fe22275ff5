"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { ErrorNote } from "./study-frame";
import { CardChip, StudySources } from "./study-sources";
import { studyApi, studyFetch, type StudyCardView } from "./types";

/** What the card asks, by kind (a model-written card is a question with a free answer). */
const PROMPT: Record<StudyCardView["kind"], string> = { definition: "Define the term", cloze: "Fill the blank", question: "Answer the question" };

const GRADES = [
  { key: "1", grade: "again", label: "Again", tone: "bg-red-600 hover:bg-red-700" },
  { key: "2", grade: "hard", label: "Hard", tone: "bg-amber-600 hover:bg-amber-700" },
  { key: "3", grade: "good", label: "Good", tone: "bg-emerald-600 hover:bg-emerald-700" },
  { key: "4", grade: "easy", label: "Easy", tone: "bg-blue-600 hover:bg-blue-700" },
] as const;

/** A card's answer side: the value for a cloze, the definition for a term. */
export function CardBack({ card }: { card: StudyCardView }) {
  return (
    <div data-testid="card-back">
      <p className="text-lg font-semibold text-ink">{card.back}</p>
      {card.kind === "cloze" ? <p className="mt-2 text-sm text-muted">{card.front.replace("____", card.back)}</p> : null}
    </div>
  );
}

/** Practice: the due queue, one card at a time. Space flips, 1–4 grade (again, hard, good, easy). */
export function Practice({ courseSlug, deckId }: { courseSlug: string; deckId: string | null }) {
  const api = studyApi(courseSlug);
  const [queue, setQueue] = useState<StudyCardView[] | null>(null);
  const [flipped, setFlipped] = useState(false);
  const [done, setDone] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const r = await studyFetch<{ due: StudyCardView[] }>(`${api}/study${deckId ? `?deck=${encodeURIComponent(deckId)}` : ""}`);
      setQueue(r.due);
      setFlipped(false);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [api, deckId]);
  useEffect(() => void load(), [load]);

  const card = queue?.[0] ?? null;
  const grade = useCallback(
    async (g: string) => {
      if (!card || busy) return;
      setBusy(true);
      setError(null);
      try {
        await studyFetch(`${api}/cards/${card.id}/review`, { method: "POST", body: JSON.stringify({ grade: g }) });
        setDone((n) => n + 1);
        setQueue((q) => (q ? q.slice(1) : q));
        setFlipped(false);
      } catch (e) {
        setError((e as Error).message);
      } finally {
        setBusy(false);
      }
    },
    [api, busy, card],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.closest("[data-testid=source-panel],[data-testid=citation-popover]"))) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === " ") {
        e.preventDefault();
        if (card) setFlipped((f) => !f);
      } else if (flipped) {
        const g = GRADES.find((x) => x.key === e.key);
        if (g) {
          e.preventDefault();
          void grade(g.grade);
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [card, flipped, grade]);

  const back = `/courses/${encodeURIComponent(courseSlug)}/study`;
  return (
    <StudySources courseSlug={courseSlug}>
      <main className="mx-auto max-w-2xl px-4 py-8 sm:px-6 sm:py-12">
        <div className="flex items-center justify-between gap-3">
          <h1 className="text-2xl font-semibold tracking-tight text-ink">Practice</h1>
          <Link href={back} className="text-sm text-accent-700 hover:underline">
            All decks
          </Link>
        </div>
        <p className="mt-1 text-sm text-muted" data-testid="practice-status">
          {queue === null ? "Loading…" : `${queue.length} due · ${done} reviewed this session`}
        </p>
        <ErrorNote error={error} />
        {queue && !card ? (
          <div data-testid="practice-empty" className="mt-8 rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-12 text-center">
            <p className="text-base font-medium text-ink">Nothing is due right now.</p>
            <p className="mt-1 text-sm text-muted">Cards come back when FSRS schedules them.</p>
            <button type="button" onClick={() => void load()} className="mt-4 rounded-lg border border-line-strong px-3 py-1.5 text-sm" data-testid="practice-reload">
              Check again
            </button>
          </div>
        ) : null}
        {card ? (
          <section data-testid="practice-card" data-card-id={card.id} aria-live="polite" className="mt-6 rounded-2xl border border-line bg-surface p-5 shadow-sm sm:p-7">
            <p className="text-xs font-medium uppercase tracking-wide text-muted">{PROMPT[card.kind]}</p>
            <p data-testid="card-front" className="mt-2 text-xl leading-relaxed text-ink [overflow-wrap:anywhere]">
              {card.front}
            </p>
            <p className="mt-3 text-sm text-muted">
              {card.documentTitle} <CardChip card={card} scope="practice" />
            </p>
            {flipped ? (
              <div className="mt-5 border-t border-line pt-5">
                <CardBack card={card} />
                <div className="mt-5 grid grid-cols-2 gap-2 sm:grid-cols-4" role="group" aria-label="Grade">
                  {GRADES.map((g) => (
                    <button key={g.grade} type="button" disabled={busy} data-testid={`grade-${g.grade}`} onClick={() => void grade(g.grade)} className={`rounded-lg px-3 py-2.5 text-sm font-medium text-white ${g.tone}`}>
                      <kbd className="mr-1 font-mono text-xs opacity-80">{g.key}</kbd> {g.label}
                    </button>
                  ))}
                </div>
              </div>
            ) : (
              <button type="button" data-testid="flip" onClick={() => setFlipped(true)} className="mt-6 w-full rounded-lg bg-accent-600 px-4 py-2.5 text-sm font-medium text-white hover:bg-accent-700">
                Show answer <kbd className="ml-1 font-mono text-xs opacity-80">Space</kbd>
              </button>
            )}
          </section>
        ) : null}
      </main>
    </StudySources>
  );
}
