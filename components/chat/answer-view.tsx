"use client";

import type { ReactNode } from "react";
import type { Answer, AnswerClaim, AnswerPart, AnswerStatus } from "@/lib/rag/pipeline";
import { CitationChips } from "@/components/sources/citation-chip";
import { StageIndicator } from "./stage-indicator";
import type { StreamingPart, Turn } from "./types";

type Tone = "emerald" | "amber" | "stone" | "violet" | "rose" | "orange" | "sky";

const tones: Record<Tone, { badge: string; dot: string; panel: string; title: string }> = {
  emerald: { badge: "bg-emerald-50 text-emerald-800 ring-emerald-200/70", dot: "text-emerald-600", panel: "bg-emerald-50/60 ring-emerald-200/60", title: "text-emerald-900" },
  amber: { badge: "bg-amber-50 text-amber-900 ring-amber-200/80", dot: "text-amber-600", panel: "bg-amber-50/70 ring-amber-200/70", title: "text-amber-950" },
  stone: { badge: "bg-stone-100 text-stone-700 ring-stone-200", dot: "text-stone-500", panel: "bg-stone-50 ring-stone-200", title: "text-ink" },
  violet: { badge: "bg-violet-50 text-violet-800 ring-violet-200/80", dot: "text-violet-600", panel: "bg-violet-50/60 ring-violet-200/70", title: "text-violet-950" },
  rose: { badge: "bg-rose-50 text-rose-800 ring-rose-200/80", dot: "text-rose-600", panel: "bg-rose-50/60 ring-rose-200/70", title: "text-rose-950" },
  orange: { badge: "bg-orange-50 text-orange-800 ring-orange-200/80", dot: "text-orange-600", panel: "bg-orange-50/60 ring-orange-200/70", title: "text-orange-950" },
  sky: { badge: "bg-sky-50 text-sky-800 ring-sky-200/80", dot: "text-sky-600", panel: "bg-sky-50/60 ring-sky-200/70", title: "text-sky-950" },
};

/** Each status looks different and says what it means. Messages from the server win; these are fallbacks. */
const statusMeta: Record<AnswerStatus, { label: string; tone: Tone; icon: keyof typeof icons; title?: string; fallback: string }> = {
  answered: { label: "Answered from your notes", tone: "emerald", icon: "check", fallback: "" },
  partial: {
    label: "Partly answered",
    tone: "amber",
    icon: "half",
    fallback: "Only part of your question is answered from your notes. The parts listed here are not covered by the indexed notes.",
  },
  insufficient_evidence: {
    label: "Not in your notes",
    tone: "stone",
    icon: "search",
    title: "I could not find supporting passages in the indexed notes.",
    fallback: "I could not find supporting passages in the indexed notes.",
  },
  conflicting_evidence: {
    label: "The sources disagree",
    tone: "violet",
    icon: "split",
    fallback: "The indexed notes disagree on this, so no side was picked; both sources are shown with their citations.",
  },
  retrieval_error: {
    label: "Search failed",
    tone: "rose",
    icon: "alert",
    title: "Search is not working right now.",
    fallback: "The search over the notes failed, so this says nothing about what the notes contain.",
  },
  validation_failed: {
    label: "Answer withheld",
    tone: "orange",
    icon: "shield",
    title: "The answer was withheld because its citations did not check out.",
    fallback: "An answer was written but withheld, because its citations did not match the notes it quoted.",
  },
  generation_error: {
    label: "Model unavailable",
    tone: "sky",
    icon: "plug",
    title: "The answer model could not be reached.",
    fallback: "The answer model failed or timed out, so nothing was answered and nothing is claimed about the notes.",
  },
  question_too_long: {
    label: "Question too long",
    tone: "amber",
    icon: "alert",
    title: "The question does not fit the model's context window.",
    fallback: "This question is too long to fit the model's context window with the notes, so nothing was searched.",
  },
  cancelled: {
    label: "Cancelled",
    tone: "stone",
    icon: "alert",
    fallback: "The question was cancelled before its answer was complete; nothing was answered.",
  },
};

const icons = {
  check: <path d="M4.5 10.5 8 14l7.5-8" />,
  half: (
    <>
      <circle cx="10" cy="10" r="6.5" />
      <path d="M10 3.5v13" />
    </>
  ),
  search: (
    <>
      <circle cx="9" cy="9" r="5" />
      <path d="m13 13 3.5 3.5" />
    </>
  ),
  split: <path d="M10 16V9M10 9 5 4M10 9l5-5M3.5 4H6M14 4h2.5" />,
  alert: <path d="M10 6v5M10 14h.01M8.6 3.4 2.7 14a1.6 1.6 0 0 0 1.4 2.4h11.8a1.6 1.6 0 0 0 1.4-2.4L11.4 3.4a1.6 1.6 0 0 0-2.8 0Z" />,
  shield: <path d="M10 2.8 4 5v4.6c0 3.6 2.6 6.4 6 7.6 3.4-1.2 6-4 6-7.6V5l-6-2.2ZM7.5 10.2l1.8 1.8 3.4-3.6" />,
  plug: <path d="M7 3v4M13 3v4M5.5 7h9v2.5a4.5 4.5 0 0 1-9 0V7ZM10 14v3" />,
};

function Icon({ name, className = "" }: { name: keyof typeof icons; className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" className={className}>
      {icons[name]}
    </svg>
  );
}

export function StatusBadge({ status }: { status: AnswerStatus }) {
  const meta = statusMeta[status];
  const tone = tones[meta.tone];
  return (
    <span
      data-testid="answer-status"
      data-status={status}
      className={`inline-flex shrink-0 items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 py-1 text-xs font-medium ring-1 ring-inset ${tone.badge}`}
    >
      <Icon name={meta.icon} className={`size-3.5 ${tone.dot}`} />
      {meta.label}
    </span>
  );
}

/** "what is the late penalty" → "What is the late penalty?" */
function asQuestion(ask: string): string {
  const t = ask.trim();
  if (!t) return t;
  const cap = t[0].toUpperCase() + t.slice(1);
  return /[?.!]$/.test(cap) ? cap : `${cap}?`;
}

function Claim({ claim, claimKey }: { claim: AnswerClaim; claimKey: string }) {
  return (
    <div
      data-testid="claim"
      className="text-[15.5px] leading-7 text-ink transition-all duration-500 ease-out starting:translate-y-1 starting:opacity-0 motion-reduce:transition-none"
    >
      {claim.text}
      <CitationChips claimKey={claimKey} citations={claim.citations} />
    </div>
  );
}

/** The place of a claim whose citations failed: it is being checked again, and its text is never shown before it passes. */
function HeldClaim() {
  return (
    <div
      data-testid="held-claim"
      role="status"
      className="flex items-center gap-2 rounded-lg bg-amber-50/70 px-3 py-2 text-sm text-amber-900 ring-1 ring-inset ring-amber-200/80 motion-safe:animate-pulse"
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-amber-500" />
      Checking a claim: its citation did not match the notes, so it is held until it does.
    </div>
  );
}

/** Both sides of a conflict, side by side, each with the document it comes from and its citations. */
function ConflictSides({ part, partKey }: { part: StreamingPart; partKey: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {part.claims.map((claim, i) => {
        const c = claim.citations[0];
        return (
          <div
            key={i}
            data-testid="conflict-side"
            className="rounded-xl bg-surface p-4 ring-1 ring-violet-200/80 transition-all duration-500 starting:opacity-0 motion-reduce:transition-none"
          >
            {c ? (
              <p className="mb-1.5 text-xs font-medium text-violet-800">
                {c.documentTitle} <span className="font-normal text-muted">· revision {c.revision}</span>
              </p>
            ) : null}
            <Claim claim={claim} claimKey={`${partKey}-${i}`} />
          </div>
        );
      })}
    </div>
  );
}

function Notice({ tone, title, children, testId }: { tone: Tone; title?: ReactNode; children?: ReactNode; testId?: string }) {
  const t = tones[tone];
  return (
    <div data-testid={testId} className={`rounded-xl px-4 py-3.5 ring-1 ring-inset ${t.panel}`}>
      {title ? <p className={`text-[15px] font-medium leading-relaxed ${t.title}`}>{title}</p> : null}
      {children ? <div className={`${title ? "mt-1.5" : ""} space-y-1.5 text-sm leading-relaxed text-ink-soft`}>{children}</div> : null}
    </div>
  );
}

function NextStep({ text }: { text?: string | null }) {
  if (!text) return null;
  return (
    <p data-testid="answer-next-step" className="flex gap-1.5">
      <span aria-hidden="true" className="text-muted">→</span>
      <span>{text}</span>
    </p>
  );
}

function RetryButton({ onRetry }: { onRetry?: () => void }) {
  if (!onRetry) return null;
  return (
    <button
      type="button"
      data-testid="retry"
      onClick={onRetry}
      className="mt-2 inline-flex items-center gap-1.5 rounded-lg border border-line-strong bg-surface px-3 py-1.5 text-sm font-medium text-ink shadow-sm transition-colors hover:bg-canvas"
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round">
        <path d="M15.5 9.5a5.5 5.5 0 1 1-1.6-3.9M15.5 3.5v3h-3" />
      </svg>
      Try again
    </button>
  );
}

function GeneratorNote({ generator }: { generator: string }) {
  const extractive = generator === "extractive";
  return (
    <p
      data-testid="answer-generator"
      data-generator={generator}
      className="shrink-0 truncate text-xs text-muted/80"
      title={extractive ? "Extractive generator: no language model; the answer is sentences quoted verbatim from the notes" : `Written by the model ${generator}; every citation was checked against its quote`}
    >
      {extractive ? (
        <>
          <span className="font-medium text-muted">extractive</span>
          <span className="hidden sm:inline"> · quoted verbatim</span>
        </>
      ) : (
        <>
          model · <span className="font-mono text-[11px] text-muted">{generator}</span>
        </>
      )}
    </p>
  );
}

/** The parts with claims, in order; a part's question is shown only when the answer has several parts. */
function SupportedParts({ parts, turnKey, labelled }: { parts: StreamingPart[]; turnKey: string; labelled: boolean }) {
  const shown = parts.map((p, i) => ({ part: p, index: i })).filter(({ part }) => part.claims.length > 0 || (part.held ?? 0) > 0);
  if (shown.length === 0) return null;
  return (
    <div className="space-y-5">
      {shown.map(({ part, index }) => {
        const partKey = `${turnKey}-p${index}`;
        const body =
          part.state === "conflicting" ? (
            <ConflictSides part={part} partKey={partKey} />
          ) : (
            <div className="space-y-3">
              {part.claims.map((claim, i) => (
                <Claim key={i} claim={claim} claimKey={`${partKey}-${i}`} />
              ))}
              {Array.from({ length: part.held ?? 0 }, (_, i) => (
                <HeldClaim key={`held-${i}`} />
              ))}
            </div>
          );
        return (
          <section key={index} data-testid="answer-part" data-state={part.state} aria-label={labelled ? asQuestion(part.ask) : undefined}>
            {labelled ? <h3 className="mb-2 text-[13px] font-medium text-muted">{asQuestion(part.ask)}</h3> : null}
            {body}
          </section>
        );
      })}
    </div>
  );
}

/** A part the notes did not answer, and why, as far as the passages searched show. */
function MissingPart({ part, partKey, label = "Not in your notes", className }: { part: AnswerPart; partKey: string; label?: string; className?: string }) {
  const closest = part.gap?.closest;
  return (
    <li data-testid="missing-part" className={className}>
      <span className="font-medium">{label}:</span> {part.ask}
      {part.gap ? (
        <span data-testid="missing-why" className="block text-sm text-muted">
          {part.gap.text}
          {/* The passage itself, to read and judge: the chip opens it like any citation. */}
          {closest ? <CitationChips claimKey={`${partKey}-closest`} citations={[closest]} name="Closest passage, not an answer" /> : null}
        </span>
      ) : null}
    </li>
  );
}

function FinalBody({ answer, turnKey, onRetry }: { answer: Answer; turnKey: string; onRetry?: () => void }) {
  const meta = statusMeta[answer.status];
  const message = answer.message ?? meta.fallback;
  const missing = answer.parts.filter((p) => p.state === "missing");
  const withheld = answer.parts.filter((p) => p.state === "validation_failed");
  const labelled = answer.parts.length > 1;

  switch (answer.status) {
    case "answered":
      return <SupportedParts parts={answer.parts} turnKey={turnKey} labelled={labelled} />;
    case "partial":
      return (
        <div className="space-y-5">
          <SupportedParts parts={answer.parts} turnKey={turnKey} labelled={labelled} />
          <Notice tone="amber" testId="answer-explanation">
            <ul className="space-y-1">
              {missing.map((p, i) => (
                <MissingPart key={i} part={p} partKey={`${turnKey}-m${i}`} className="text-[15px] text-amber-950" />
              ))}
              {withheld.map((p, i) => (
                <li key={`w${i}`} data-testid="withheld-part" className="text-[15px] text-amber-950">
                  <span className="font-medium">Withheld, its citations did not check out:</span> {p.ask}
                </li>
              ))}
            </ul>
            <p className="pt-1">{message}</p>
            <NextStep text={answer.nextStep} />
          </Notice>
        </div>
      );
    case "insufficient_evidence":
      return (
        <Notice tone="stone" title={message} testId="answer-explanation">
          {missing.length ? (
            <ul className="space-y-1 text-muted">
              {missing.map((p, i) => (
                <MissingPart key={i} part={p} partKey={`${turnKey}-m${i}`} label="Looked for" />
              ))}
            </ul>
          ) : null}
          <NextStep text={answer.nextStep} />
        </Notice>
      );
    case "conflicting_evidence":
      return (
        <div className="space-y-5">
          <SupportedParts parts={answer.parts} turnKey={turnKey} labelled={labelled} />
          {missing.length ? (
            <ul className="space-y-1 text-[15px]">
              {missing.map((p, i) => (
                <MissingPart key={i} part={p} partKey={`${turnKey}-m${i}`} />
              ))}
            </ul>
          ) : null}
          <Notice tone="violet" title="The sources disagree" testId="answer-explanation">
            <p>{message}</p>
            <NextStep text={answer.nextStep} />
          </Notice>
        </div>
      );
    case "retrieval_error":
    case "generation_error":
      return (
        <Notice tone={meta.tone} title={meta.title} testId="answer-explanation">
          <p>{message}</p>
          <NextStep text={answer.nextStep} />
          <RetryButton onRetry={onRetry} />
        </Notice>
      );
    case "validation_failed":
      return (
        <div className="space-y-5">
          <SupportedParts parts={answer.parts} turnKey={turnKey} labelled={labelled} />
          <Notice tone={meta.tone} title={meta.title} testId="answer-explanation">
            <p>{message}</p>
            <NextStep text={answer.nextStep} />
          </Notice>
        </div>
      );
    case "question_too_long":
    case "cancelled":
      return (
        <Notice tone={meta.tone} title={meta.title} testId="answer-explanation">
          <p>{message}</p>
          <NextStep text={answer.nextStep} />
        </Notice>
      );
  }
}

/** One answer: the stage while it streams, the claims as they arrive, then what its status means. */
export function AnswerView({ turn, onRetry }: { turn: Turn; onRetry?: () => void }) {
  const { answer } = turn;
  const streaming = turn.phase === "streaming";

  return (
    <div data-testid="answer" data-phase={turn.phase} data-status={answer?.status ?? ""} data-trace-id={answer?.traceId ?? ""} aria-busy={streaming} className="space-y-4">
      <div className="flex min-h-7 items-center justify-between gap-3">
        {answer ? (
          <StatusBadge status={answer.status} />
        ) : streaming ? (
          <StageIndicator progress={turn.progress} />
        ) : (
          <span data-testid="answer-status" data-status="failed" className="inline-flex items-center gap-1.5 rounded-full bg-rose-50 px-2.5 py-1 text-xs font-medium text-rose-800 ring-1 ring-inset ring-rose-200/80">
            <Icon name="alert" className="size-3.5 text-rose-600" />
            Not answered
          </span>
        )}
        {answer && !streaming ? <GeneratorNote generator={answer.generator} /> : null}
      </div>

      {answer ? (
        <FinalBody answer={answer} turnKey={turn.key} onRetry={onRetry} />
      ) : (
        <SupportedParts parts={turn.parts} turnKey={turn.key} labelled={turn.parts.length > 1} />
      )}

      {turn.phase === "failed" ? (
        <Notice tone={turn.busy ? "amber" : "rose"} title={turn.busy ? "The assistant is busy." : "The answer did not arrive."} testId="answer-error">
          <p>{turn.error ?? "Something went wrong while answering. Nothing was saved; try again."}</p>
          <RetryButton onRetry={onRetry} />
        </Notice>
      ) : null}

    </div>
  );
}
