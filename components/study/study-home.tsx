"use client";

import Link from "next/link";
import { useCallback, useEffect, useState, type FormEvent } from "react";
import type { DocumentRevisions } from "@/components/chat/api";
import { listDocuments } from "@/components/chat/api";
import { ErrorNote } from "./study-frame";
import { ProgressChart, type DailyGrades } from "./progress-chart";
import { studyApi, studyFetch, type DeckView } from "./types";

interface Progress {
  counts: { new: number; learning: number; review: number; due: number; changed: number };
  daily: DailyGrades[];
}

const button = "inline-flex items-center justify-center rounded-lg px-3 py-1.5 text-sm font-medium transition disabled:opacity-50";
const primary = `${button} bg-accent-600 text-white hover:bg-accent-700`;
const secondary = `${button} border border-line-strong bg-surface text-ink hover:bg-canvas`;

/** The course's decks, generating a new one, importing one, and the student's progress. */
export function StudyHome({ courseSlug, role, userId }: { courseSlug: string; role: "instructor" | "student"; userId: string }) {
  const api = studyApi(courseSlug);
  const base = `/courses/${encodeURIComponent(courseSlug)}/study`;
  const [decks, setDecks] = useState<DeckView[] | null>(null);
  const [documents, setDocuments] = useState<DocumentRevisions[]>([]);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [d, s] = await Promise.all([studyFetch<{ decks: DeckView[] }>(`${api}/decks`), studyFetch<{ progress: Progress }>(`${api}/study`)]);
      setDecks(d.decks);
      setProgress(s.progress);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [api]);
  useEffect(() => {
    void load();
    listDocuments(courseSlug)
      .then((docs) => setDocuments(docs.filter((d) => d.currentRevisionId)))
      .catch(() => {});
  }, [courseSlug, load]);

  // While a deck is being generated, its progress is polled.
  const generating = decks?.some((d) => d.status === "generating");
  useEffect(() => {
    if (!generating) return;
    const t = window.setInterval(() => void load(), 400);
    return () => window.clearInterval(t);
  }, [generating, load]);

  const [documentId, setDocumentId] = useState("");
  const [pageFrom, setPageFrom] = useState("");
  const [pageTo, setPageTo] = useState("");
  const [title, setTitle] = useState("");
  const [pending, setPending] = useState(false);
  async function generate(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setPending(true);
    try {
      const doc = documents.find((d) => d.id === documentId);
      const range = pageFrom || pageTo ? ` (pages ${pageFrom || "1"}–${pageTo || "end"})` : "";
      await studyFetch(`${api}/decks`, {
        method: "POST",
        body: JSON.stringify({
          title: title.trim() || (doc ? `${doc.title}${range}` : undefined),
          documentId: documentId || null,
          pageFrom: pageFrom ? Number(pageFrom) : null,
          pageTo: pageTo ? Number(pageTo) : null,
        }),
      });
      setTitle("");
      await load();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setPending(false);
    }
  }

  async function publish(deck: DeckView, published: boolean) {
    setError(null);
    try {
      await studyFetch(`${api}/decks/${deck.id}`, { method: "PATCH", body: JSON.stringify({ published }) });
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  async function importFile(file: File) {
    setError(null);
    setNotice(null);
    try {
      const text = await file.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new Error("That file is not a deck exported as JSON.");
      }
      const r = await studyFetch<{ imported: number; dropped: number }>(`${api}/decks/import`, { method: "POST", body: JSON.stringify(json) });
      setNotice(`Imported ${r.imported} card${r.imported === 1 ? "" : "s"}${r.dropped ? `; ${r.dropped} dropped because their quote is not in this course's notes` : ""}.`);
      await load();
    } catch (err) {
      setError((err as Error).message);
    }
  }

  const counts = progress?.counts;
  return (
    <main className="mx-auto max-w-5xl px-4 py-8 sm:px-6 sm:py-12">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">Study</h1>
          <p className="mt-2 max-w-2xl text-base leading-relaxed text-muted">Flashcards and quizzes drawn from the course notes. Every card cites its page and revision.</p>
        </div>
        <Link href={`${base}/practice`} data-testid="practice-link" className={`${primary} px-4 py-2`}>
          Practise {counts ? `(${counts.due} due)` : ""}
        </Link>
      </div>

      <ErrorNote error={error} testId="study-error" />
      {notice ? (
        <p role="status" data-testid="study-notice" className="mt-6 rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-900 ring-1 ring-inset ring-emerald-200">
          {notice}
        </p>
      ) : null}

      {counts ? (
        <section aria-labelledby="progress-heading" className="mt-8 rounded-2xl border border-line bg-surface p-5">
          <h2 id="progress-heading" className="text-lg font-semibold tracking-tight text-ink">
            Your progress
          </h2>
          <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="progress-counts">
            {(
              [
                ["Due now", counts.due],
                ["New", counts.new],
                ["Learning", counts.learning],
                ["In review", counts.review],
                ["Changed", counts.changed],
              ] as const
            ).map(([label, n]) => (
              <div key={label} className="rounded-lg bg-canvas px-3 py-2">
                <dt className="text-xs text-muted">{label}</dt>
                <dd className="font-mono text-lg text-ink">{n}</dd>
              </div>
            ))}
          </dl>
          <div className="mt-4">
            <ProgressChart daily={progress.daily} />
          </div>
        </section>
      ) : null}

      <section aria-labelledby="new-deck-heading" className="mt-8 rounded-2xl border border-line bg-surface p-5">
        <h2 id="new-deck-heading" className="text-lg font-semibold tracking-tight text-ink">
          New deck
        </h2>
        <p className="mt-1 text-sm text-muted">
          Drawn from a document, a page range or the whole course. {role === "instructor" ? "It stays private until you publish it to the course." : "It is yours alone."}
        </p>
        <form onSubmit={generate} className="mt-4 grid gap-3 sm:grid-cols-[2fr_1fr_1fr]" data-testid="new-deck-form">
          <label className="flex flex-col gap-1 text-sm text-ink-soft sm:col-span-3">
            Title (optional)
            <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} className="rounded-lg border border-line-strong px-3 py-2 text-ink" />
          </label>
          <label className="flex flex-col gap-1 text-sm text-ink-soft">
            Source
            <select value={documentId} onChange={(e) => setDocumentId(e.target.value)} data-testid="deck-document" className="rounded-lg border border-line-strong bg-surface px-3 py-2 text-ink">
              <option value="">Whole course</option>
              {documents.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.title}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm text-ink-soft">
            From PDF page
            <input type="number" min={1} value={pageFrom} onChange={(e) => setPageFrom(e.target.value)} disabled={!documentId} className="rounded-lg border border-line-strong px-3 py-2 text-ink disabled:opacity-50" />
          </label>
          <label className="flex flex-col gap-1 text-sm text-ink-soft">
            To PDF page
            <input type="number" min={1} value={pageTo} onChange={(e) => setPageTo(e.target.value)} disabled={!documentId} className="rounded-lg border border-line-strong px-3 py-2 text-ink disabled:opacity-50" />
          </label>
          <div className="flex flex-wrap items-center gap-3 sm:col-span-3">
            <button type="submit" disabled={pending} className={primary} data-testid="generate-deck">
              {pending ? "Starting…" : "Generate deck"}
            </button>
            <label className={`${secondary} cursor-pointer`}>
              Import JSON…
              <input
                type="file"
                accept="application/json,.json"
                className="sr-only"
                data-testid="import-deck"
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (f) void importFile(f);
                  e.target.value = "";
                }}
              />
            </label>
          </div>
        </form>
      </section>

      <section aria-labelledby="decks-heading" className="mt-8">
        <h2 id="decks-heading" className="text-lg font-semibold tracking-tight text-ink">
          Decks
        </h2>
        {decks === null ? (
          <p className="mt-3 text-sm text-muted">Loading…</p>
        ) : decks.length === 0 ? (
          <p className="mt-3 rounded-2xl border border-dashed border-line-strong bg-surface px-6 py-10 text-center text-sm text-muted">No decks yet. Generate one above.</p>
        ) : (
          <ul className="mt-3 divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface" data-testid="deck-list">
            {decks.map((d) => (
              <li key={d.id} data-testid="deck" data-deck-id={d.id} className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2">
                    <Link href={`${base}/${d.id}`} className="font-medium text-ink hover:underline" data-testid="deck-title">
                      {d.title}
                    </Link>
                    <span className={`rounded-full px-2 py-0.5 text-xs ${d.visibility === "course" ? "bg-accent-50 text-accent-700" : "bg-stone-100 text-ink-soft"}`} data-testid="deck-visibility">
                      {d.visibility === "course" ? "Published to the course" : d.ownerId === userId ? "Private" : "Private (another user)"}
                    </span>
                    {d.changedCount ? (
                      <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs text-amber-900 ring-1 ring-inset ring-amber-200">{d.changedCount} changed</span>
                    ) : null}
                  </p>
                  {d.status === "generating" ? (
                    <div className="mt-2" data-testid="deck-progress">
                      <div className="h-1.5 w-full max-w-xs overflow-hidden rounded-full bg-stone-200" role="progressbar" aria-valuemin={0} aria-valuemax={d.total} aria-valuenow={d.progress} aria-label="Generating cards">
                        <div className="h-full bg-accent-600 transition-all" style={{ width: `${d.total ? (100 * d.progress) / d.total : 0}%` }} />
                      </div>
                      <p className="mt-1 text-xs text-muted">
                        Reading page {d.progress} of {d.total}…
                      </p>
                    </div>
                  ) : d.status === "failed" ? (
                    <p className="mt-1 text-xs text-red-700">{d.error}</p>
                  ) : (
                    <p className="mt-1 text-xs text-muted" data-testid="deck-count">
                      {d.cardCount} card{d.cardCount === 1 ? "" : "s"}
                      {d.dropped ? ` · ${d.dropped} more dropped: their quote is not in the notes` : ""}
                    </p>
                  )}
                </div>
                {d.status === "ready" ? (
                  <div className="flex flex-wrap gap-2">
                    <Link href={`${base}/practice?deck=${d.id}`} className={secondary}>
                      Practise
                    </Link>
                    <Link href={`${base}/${d.id}/quiz`} className={secondary} data-testid="quiz-link">
                      Quiz
                    </Link>
                    {role === "instructor" && d.ownerId === userId ? (
                      <button type="button" className={secondary} data-testid="publish-deck" onClick={() => void publish(d, d.visibility !== "course")}>
                        {d.visibility === "course" ? "Unpublish" : "Publish to course"}
                      </button>
                    ) : null}
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
    </main>
  );
}
