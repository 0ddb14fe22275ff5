"use client";

import Link from "next/link";
import { useCallback, useEffect, useState } from "react";
import { StudyFrame } from "./study-frame";
import { CardChip } from "./study-sources";
import { studyApi, studyFetch, type DeckView as Deck, type StudyCardView } from "./types";

/** A deck's cards with their citations; a changed card shows its old quote, the new passage, and keep / edit / retire. */
export function DeckView({ courseSlug, deckId }: { courseSlug: string; deckId: string }) {
  const api = studyApi(courseSlug);
  const [data, setData] = useState<{ deck: Deck; cards: StudyCardView[]; canEdit: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setData(await studyFetch(`${api}/decks/${encodeURIComponent(deckId)}`));
    } catch (e) {
      setError((e as Error).message);
    }
  }, [api, deckId]);
  useEffect(() => void load(), [load]);

  async function resolve(card: StudyCardView, body: Record<string, string>) {
    setError(null);
    try {
      await studyFetch(`${api}/cards/${card.id}`, { method: "PATCH", body: JSON.stringify(body) });
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  }

  const base = `/courses/${encodeURIComponent(courseSlug)}/study`;
  const cards = data?.cards.filter((c) => c.status !== "retired") ?? [];
  return (
    <StudyFrame courseSlug={courseSlug} title={data?.deck.title ?? "Deck"} error={error} width="max-w-3xl">
      {data ? (
        <div className="mt-3 flex flex-wrap gap-2 text-sm">
          <Link href={`${base}/practice?deck=${deckId}`} className="rounded-lg bg-accent-600 px-3 py-1.5 font-medium text-white hover:bg-accent-700">
            Practise
          </Link>
          <Link href={`${base}/${deckId}/quiz`} className="rounded-lg border border-line-strong px-3 py-1.5">
            Quiz
          </Link>
          <a href={`${api}/decks/${deckId}/export?format=tsv`} download data-testid="export-tsv" className="rounded-lg border border-line-strong px-3 py-1.5">
            Export for Anki (TSV)
          </a>
          <a href={`${api}/decks/${deckId}/export?format=json`} download data-testid="export-json" className="rounded-lg border border-line-strong px-3 py-1.5">
            Export JSON
          </a>
        </div>
      ) : null}
      <ol className="mt-6 space-y-3" data-testid="card-list">
        {cards.map((c) => (
          <li key={c.id} data-testid="deck-card" data-status={c.status} className={`rounded-xl border bg-surface p-4 ${c.status === "changed" ? "border-amber-300" : "border-line"}`}>
            <p className="text-[15px] text-ink [overflow-wrap:anywhere]">
              <span className="mr-2 rounded bg-stone-100 px-1.5 py-0.5 text-xs text-ink-soft">{c.kind === "definition" ? "Term" : "Cloze"}</span>
              {c.front}
            </p>
            <p className="mt-1 text-sm text-ink-soft [overflow-wrap:anywhere]">
              → {c.back} <CardChip card={c} scope="deck" />
            </p>
            {c.status === "changed" ? (
              <ChangedCard card={c} canEdit={data?.canEdit ?? false} onResolve={(body) => void resolve(c, body)} />
            ) : null}
          </li>
        ))}
      </ol>
    </StudyFrame>
  );
}

function ChangedCard({ card, canEdit, onResolve }: { card: StudyCardView; canEdit: boolean; onResolve: (body: Record<string, string>) => void }) {
  const [editing, setEditing] = useState(false);
  const [front, setFront] = useState(card.front);
  const [back, setBack] = useState(card.back);
  return (
    <div data-testid="changed-card" className="mt-3 rounded-lg bg-amber-50 p-3 text-sm text-amber-950 ring-1 ring-inset ring-amber-200">
      <p className="font-semibold" data-testid="changed-badge">
        Changed in revision {card.changedInRevision}
      </p>
      <p className="mt-1">Its practice is paused until it is kept, edited or retired.</p>
      <p className="mt-2 text-xs font-medium uppercase tracking-wide">Old quote (revision {card.revisionNumber})</p>
      <blockquote className="mt-0.5 border-l-2 border-amber-400 pl-2" data-testid="old-quote">
        {card.quote}
      </blockquote>
      <p className="mt-2 text-xs font-medium uppercase tracking-wide">Now in the notes</p>
      <blockquote className="mt-0.5 border-l-2 border-emerald-500 pl-2" data-testid="new-passage">
        {card.newPassage ? `${card.newPassage} (PDF page ${card.newPdfPage})` : "No similar passage was found: the fact may have been removed."}
      </blockquote>
      {canEdit ? (
        editing ? (
          <form
            className="mt-3 grid gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              onResolve({ action: "edit", front, back });
            }}
          >
            <label className="grid gap-1">
              Front
              <textarea value={front} onChange={(e) => setFront(e.target.value)} className="rounded border border-line-strong bg-white p-2 text-ink" />
            </label>
            <label className="grid gap-1">
              Back
              <textarea value={back} onChange={(e) => setBack(e.target.value)} className="rounded border border-line-strong bg-white p-2 text-ink" />
            </label>
            <button type="submit" className="justify-self-start rounded-lg bg-accent-600 px-3 py-1.5 text-white">
              Save
            </button>
          </form>
        ) : (
          <div className="mt-3 flex flex-wrap gap-2">
            <button type="button" data-testid="keep-card" onClick={() => onResolve({ action: "keep" })} className="rounded-lg border border-amber-400 bg-white px-3 py-1.5">
              Keep
            </button>
            <button type="button" data-testid="edit-card" onClick={() => setEditing(true)} className="rounded-lg border border-amber-400 bg-white px-3 py-1.5">
              Edit
            </button>
            <button type="button" data-testid="retire-card" onClick={() => onResolve({ action: "retire" })} className="rounded-lg border border-amber-400 bg-white px-3 py-1.5">
              Retire
            </button>
          </div>
        )
      ) : (
        <p className="mt-2 text-xs">The course&apos;s instructors decide what happens to it.</p>
      )}
    </div>
  );
}
