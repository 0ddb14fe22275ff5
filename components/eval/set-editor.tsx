"use client";

import { useRouter } from "next/navigation";
import { useState, type ChangeEvent, type FormEvent } from "react";
import { Section } from "@/components/trace/trace-view";
import { useJsonPost } from "@/components/ui/use-json-post";
import { PassagePicker, where, type PickedPassage } from "@/components/workbench/passage-picker";
import { QuestionField } from "@/components/workbench/question-field";
import type { StoredGoldenQuestion } from "@/lib/db/queries/golden";
import type { Expectation, Kind } from "@/lib/eval/metrics";

const field =
  "mt-1 block w-full rounded-lg border border-line-strong bg-surface px-3 py-2 text-[15px] text-ink outline-none transition focus:border-accent-500 focus:ring-2 focus:ring-accent-100";

const kindText: Record<Kind, string> = { answerable: "Answerable", unanswerable: "Unanswerable", "two-part": "Two-part", "follow-up": "Follow-up" };
/** The outcomes each kind may expect (lib/eval's rules). */
const expectsFor: Record<Kind, Expectation[]> = {
  answerable: ["answered", "partial"],
  unanswerable: ["insufficient_evidence"],
  "two-part": ["answered", "partial", "insufficient_evidence"],
  "follow-up": ["answered", "partial", "insufficient_evidence"],
};
const expectText: Record<Expectation, string> = {
  answered: "Answered in full",
  partial: "Answered in part",
  insufficient_evidence: "Declined: the notes do not say",
  conflicting_evidence: "Conflicting evidence",
};

/** A golden set's questions, with adding (gold passages picked from search), deleting and JSONL import. */
export function SetEditor({
  courseSlug,
  setId,
  questions,
  start,
}: {
  courseSlug: string;
  setId: string;
  questions: StoredGoldenQuestion[];
  /** A student question promoted from the Questions page. */
  start: { question: string; history: string[]; declined: boolean } | null;
}) {
  const router = useRouter();
  const api = `/api/courses/${encodeURIComponent(courseSlug)}/golden-sets/${encodeURIComponent(setId)}`;
  const initialKind: Kind = start?.declined ? "unanswerable" : start?.history.length ? "follow-up" : "answerable";
  const [kind, setKind] = useState<Kind>(initialKind);
  const [expect, setExpect] = useState<Expectation>(expectsFor[initialKind][start?.declined && initialKind === "follow-up" ? 2 : 0]);
  const [question, setQuestion] = useState(start?.question ?? "");
  const [history, setHistory] = useState((start?.history ?? []).join("\n"));
  const [answer, setAnswer] = useState("");
  const [picked, setPicked] = useState<PickedPassage[]>([]);
  const [note, setNote] = useState<string | null>(null);
  const { error, pending, post } = useJsonPost<{ question: { id: string } }>(({ question: q }) => {
    setNote(`Added as ${q.id}.`);
    setQuestion("");
    setHistory("");
    setAnswer("");
    setPicked([]);
    router.refresh();
  });
  const needsEvidence = expect === "answered" || expect === "partial";

  function chooseKind(k: Kind) {
    setKind(k);
    if (!expectsFor[k].includes(expect)) setExpect(expectsFor[k][0]);
  }

  function add(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setNote(null);
    void post(`${api}/questions`, {
      question,
      history: history.split("\n").map((h) => h.trim()).filter(Boolean),
      kind,
      expect,
      ...(needsEvidence && answer.trim() ? { answer } : {}),
      chunkIds: needsEvidence ? picked.map((p) => p.chunkId) : [],
    });
  }

  return (
    <div className="mt-8 space-y-6">
      <Section title="Add a question" note="Pick the gold passages from the search results: the passages a correct answer must find and cite.">
        <form onSubmit={add} className="space-y-4" data-testid="add-question-form">
          <div className="grid gap-4 sm:grid-cols-2">
            <label className="block">
              <span className="text-sm text-ink-soft">Kind</span>
              <select value={kind} onChange={(e) => chooseKind(e.target.value as Kind)} className={field}>
                {(Object.keys(kindText) as Kind[]).map((k) => (
                  <option key={k} value={k}>
                    {kindText[k]}
                  </option>
                ))}
              </select>
            </label>
            <label className="block">
              <span className="text-sm text-ink-soft">It should be</span>
              <select value={expect} onChange={(e) => setExpect(e.target.value as Expectation)} className={field}>
                {expectsFor[kind].map((x) => (
                  <option key={x} value={x}>
                    {expectText[x]}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <QuestionField value={question} onChange={setQuestion} />
          {kind === "follow-up" ? (
            <label className="block">
              <span className="text-sm text-ink-soft">Earlier questions of the conversation, one a line</span>
              <textarea rows={2} value={history} onChange={(e) => setHistory(e.target.value)} className={field} />
            </label>
          ) : null}
          {needsEvidence ? (
            <>
              <label className="block">
                <span className="text-sm text-ink-soft">Expected answer (words the cited quote or the claim must contain)</span>
                <input value={answer} maxLength={500} onChange={(e) => setAnswer(e.target.value)} className={field} />
              </label>
              <div>
                <p className="text-sm text-ink-soft">Gold passages ({picked.length})</p>
                {picked.length ? (
                  <ol className="mt-1 space-y-1 text-sm" data-testid="gold-picked">
                    {picked.map((p) => (
                      <li key={p.chunkId} className="truncate rounded-lg bg-canvas px-3 py-1.5 text-ink-soft">
                        {where(p)} · {p.excerpt}
                      </li>
                    ))}
                  </ol>
                ) : null}
                <div className="mt-2">
                  <PassagePicker courseSlug={courseSlug} initialQuery={question} picked={picked} onChange={setPicked} />
                </div>
              </div>
            </>
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <button type="submit" disabled={pending || !question.trim() || (needsEvidence && picked.length === 0)} className="rounded-lg bg-accent-600 px-4 py-2 text-sm font-medium text-white shadow-sm transition hover:bg-accent-700 disabled:opacity-60">
              Add to the set
            </button>
            {error ? (
              <p role="alert" className="text-sm text-rose-700">
                {error}
              </p>
            ) : null}
            {note ? (
              <p role="status" className="text-sm text-emerald-800">
                {note}
              </p>
            ) : null}
          </div>
        </form>
      </Section>

      <Section title={`Questions (${questions.length})`} note="In the order they run.">
        <ImportExport api={api} onImported={() => router.refresh()} />
        <ul className="mt-4 divide-y divide-line" data-testid="golden-questions">
          {questions.map(({ rowId, golden: g }) => (
            <li key={rowId} data-testid="golden-question" className="flex gap-4 py-3">
              <div className="min-w-0 flex-1">
                <p className="text-xs text-muted">
                  <span className="font-mono">{g.id}</span> · {kindText[g.kind]} · {expectText[g.expect]}
                </p>
                {g.history?.length ? <p className="mt-0.5 text-xs text-muted">after “{g.history.join("”, “")}”</p> : null}
                <p className="mt-0.5 text-[15px] text-ink">{g.question}</p>
                {g.answer || g.pages?.length ? (
                  <p className="mt-0.5 truncate text-xs text-ink-soft">
                    {g.answer ? `“${g.answer}” · ` : ""}
                    {(g.pages ?? []).map((p) => where({ documentTitle: p.document, pdfPage: p.pdfPage })).join("; ")}
                  </p>
                ) : null}
              </div>
              <DeleteButton url={`${api}/questions/${encodeURIComponent(rowId)}`} onDeleted={() => router.refresh()} />
            </li>
          ))}
        </ul>
        {questions.length === 0 ? <p className="text-sm text-muted">No question yet: add one above or import a JSONL file.</p> : null}
      </Section>
    </div>
  );
}

function DeleteButton({ url, onDeleted }: { url: string; onDeleted: () => void }) {
  const [failed, setFailed] = useState(false);
  return (
    <button
      type="button"
      onClick={async () => {
        const res = await fetch(url, { method: "DELETE" }).catch(() => null);
        setFailed(!res?.ok);
        if (res?.ok) onDeleted();
      }}
      className="h-fit shrink-0 text-xs text-muted hover:text-rose-700"
    >
      {failed ? "Not removed; try again" : "Remove"}
    </button>
  );
}

function ImportExport({ api, onImported }: { api: string; onImported: () => void }) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  async function upload(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    const res = await fetch(`${api}/import`, { method: "POST", headers: { "content-type": "application/x-ndjson" }, body: await file.text() }).catch(() => null);
    const data = (await res?.json().catch(() => null)) as { imported?: number; message?: string } | null;
    setMessage(res?.ok ? { ok: true, text: `Imported ${data?.imported} question(s) from ${file.name}.` } : { ok: false, text: data?.message ?? "The server could not be reached. Try again." });
    if (res?.ok) onImported();
  }
  return (
    <div className="flex flex-wrap items-center gap-3 text-sm">
      <label className="cursor-pointer rounded-lg border border-line-strong bg-surface px-3 py-1.5 font-medium text-ink hover:bg-canvas">
        Import JSONL…
        <input type="file" accept=".jsonl,.ndjson,application/x-ndjson,text/plain" onChange={upload} className="sr-only" />
      </label>
      <a href={`${api}/export`} download className="rounded-lg border border-line-strong bg-surface px-3 py-1.5 font-medium text-ink hover:bg-canvas">
        Export JSONL
      </a>
      {message ? (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? "text-emerald-800" : "text-rose-700"}>
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
