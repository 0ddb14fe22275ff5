"use client";

import { useEffect, useMemo, useState, type FormEvent } from "react";
import { answerKey } from "@/lib/study/answer-key";
import { StudyFrame } from "./study-frame";
import { CardChip } from "./study-sources";
import { studyApi, studyFetch, type StudyCardView } from "./types";

interface Question {
  card: StudyCardView;
  /** Multiple choice when the card has distractors; typed otherwise. */
  choices: string[] | null;
}

/** A stable shuffle (by card id), so the right choice is not always first. */
function mix<T>(items: T[], seed: string): T[] {
  let h = [...seed].reduce((a, ch) => (a * 31 + ch.charCodeAt(0)) >>> 0, 17);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    h = (h * 1103515245 + 12345) >>> 0;
    const j = h % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** N questions from a deck's active cards, cloze or multiple choice; the score at the end, each question linked to its page. */
export function Quiz({ courseSlug, deckId, size }: { courseSlug: string; deckId: string; size: number }) {
  const api = studyApi(courseSlug);
  const [cards, setCards] = useState<StudyCardView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [index, setIndex] = useState(0);
  const [answers, setAnswers] = useState<Array<{ given: string; right: boolean }>>([]);
  const [typed, setTyped] = useState("");
  /** A model-written question has a free answer no typed text would match: the student reveals it and says whether they had it. */
  const [revealed, setRevealed] = useState(false);
  useEffect(() => {
    studyFetch<{ cards: StudyCardView[] }>(`${api}/decks/${encodeURIComponent(deckId)}`)
      .then((r) => setCards(r.cards.filter((c) => c.status === "active")))
      .catch((e) => setError((e as Error).message));
  }, [api, deckId]);
  const questions: Question[] = useMemo(
    () =>
      (cards ?? []).slice(0, size).map((card) => ({
        card,
        choices: card.distractors.length >= 2 ? mix([card.back, ...card.distractors.slice(0, 3)], card.id) : null,
      })),
    [cards, size],
  );
  const q = questions[index];
  const answered = answers[index];
  const [finished, setFinished] = useState(false);

  function answer(given: string, right = q ? answerKey(given) === answerKey(q.card.back) : false) {
    if (!q || answered) return;
    setAnswers((a) => [...a, { given, right }]);
  }
  function submitTyped(e: FormEvent) {
    e.preventDefault();
    if (typed.trim()) answer(typed.trim());
  }
  const score = answers.filter((a) => a.right).length;

  return (
    <StudyFrame courseSlug={courseSlug} title="Quiz" error={error}>
      {cards && questions.length === 0 ? <p className="mt-4 text-sm text-muted">This deck has no active cards to ask.</p> : null}
      {q && !finished ? (
        <section data-testid="quiz-question" className="mt-6 rounded-2xl border border-line bg-surface p-5 sm:p-7">
          <p className="text-xs font-medium uppercase tracking-wide text-muted">
            Question {index + 1} of {questions.length}
          </p>
          <p className="mt-2 text-lg leading-relaxed text-ink [overflow-wrap:anywhere]">{q.card.kind === "definition" ? `What is “${q.card.front}”?` : q.card.front}</p>
          <p className="mt-2 text-sm text-muted">
            Source: {q.card.documentTitle} <CardChip card={q.card} scope={`quiz-${index}`} />
          </p>
          {q.choices ? (
            <div className="mt-4 grid gap-2" role="group" aria-label="Choices">
              {q.choices.map((c) => {
                const state = answered ? (answerKey(c) === answerKey(q.card.back) ? "right" : c === answered.given ? "wrong" : "") : "";
                return (
                  <button
                    key={c}
                    type="button"
                    data-testid="quiz-choice"
                    data-state={state}
                    disabled={Boolean(answered)}
                    onClick={() => answer(c)}
                    className={`rounded-lg border px-3 py-2 text-left text-sm [overflow-wrap:anywhere] ${state === "right" ? "border-emerald-500 bg-emerald-50" : state === "wrong" ? "border-red-500 bg-red-50" : "border-line-strong hover:bg-canvas"}`}
                  >
                    {c}
                  </button>
                );
              })}
            </div>
          ) : q.card.kind === "question" ? (
            answered ? null : revealed ? (
              <div className="mt-4" data-testid="quiz-self-check">
                <p className="text-sm text-ink-soft [overflow-wrap:anywhere]">The notes: “{q.card.back}”</p>
                <div className="mt-3 flex gap-2">
                  <button type="button" onClick={() => answer(q.card.back, true)} className="rounded-lg bg-accent-600 px-3 py-2 text-sm text-white">
                    I had it
                  </button>
                  <button type="button" onClick={() => answer("", false)} className="rounded-lg border border-line-strong px-3 py-2 text-sm">
                    I missed it
                  </button>
                </div>
              </div>
            ) : (
              <button type="button" onClick={() => setRevealed(true)} className="mt-4 rounded-lg border border-line-strong px-3 py-2 text-sm">
                Show the answer
              </button>
            )
          ) : (
            <form onSubmit={submitTyped} className="mt-4 flex gap-2">
              <input value={typed} onChange={(e) => setTyped(e.target.value)} disabled={Boolean(answered)} aria-label="Your answer" data-testid="quiz-input" className="min-w-0 flex-1 rounded-lg border border-line-strong px-3 py-2" />
              <button type="submit" disabled={Boolean(answered)} className="rounded-lg bg-accent-600 px-3 py-2 text-sm text-white">
                Answer
              </button>
            </form>
          )}
          {answered ? (
            <div className="mt-4">
              <p data-testid="quiz-feedback" className={answered.right ? "text-emerald-700" : "text-red-700"}>
                {answered.right ? "Right." : `Not quite: the notes say “${q.card.back}”.`}
              </p>
              <button
                type="button"
                data-testid="quiz-next"
                onClick={() => {
                  setTyped("");
                  setRevealed(false);
                  if (index === questions.length - 1) setFinished(true);
                  else setIndex(index + 1);
                }}
                className="mt-3 rounded-lg bg-accent-600 px-3 py-1.5 text-sm text-white"
              >
                {index === questions.length - 1 ? "See the score" : "Next question"}
              </button>
            </div>
          ) : null}
        </section>
      ) : null}
      {finished ? <QuizScore questions={questions} answers={answers} score={score} /> : null}
    </StudyFrame>
  );
}

function QuizScore({ questions, answers, score }: { questions: Question[]; answers: Array<{ given: string; right: boolean }>; score: number }) {
  return (
    <section data-testid="quiz-score" className="mt-6 rounded-2xl border border-line bg-surface p-5">
      <p className="text-xl font-semibold text-ink">
        Score: {score} / {questions.length}
      </p>
      <ol className="mt-4 space-y-2 text-sm">
        {questions.map((q, i) => (
          <li key={q.card.id} data-testid="quiz-result" className="flex flex-wrap items-baseline gap-2">
            <span className={answers[i]?.right ? "text-emerald-700" : "text-red-700"}>{answers[i]?.right ? "✓" : "✗"}</span>
            <span className="min-w-0 flex-1 [overflow-wrap:anywhere]">{q.card.back}</span>
            <CardChip card={q.card} scope={`score-${i}`} />
          </li>
        ))}
      </ol>
    </section>
  );
}
