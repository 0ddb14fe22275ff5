"use client";

import { useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent, type RefObject } from "react";
import { MAX_QUESTION_CHARS } from "@/lib/chat/protocol";

/** The question box: Enter sends, Shift+Enter adds a line; it grows with the text up to a few lines. */
export function Composer({
  onSend,
  onStop,
  busy,
  placeholder,
  inputRef,
}: {
  onSend: (question: string) => void;
  /** While an answer streams, the send button becomes a stop button that cancels it. */
  onStop?: () => void;
  busy: boolean;
  placeholder: string;
  inputRef?: RefObject<HTMLTextAreaElement | null>;
}) {
  const [value, setValue] = useState("");
  const localRef = useRef<HTMLTextAreaElement>(null);
  const ref = inputRef ?? localRef;
  const trimmed = value.trim();
  const tooLong = value.length > MAX_QUESTION_CHARS;
  const canSend = trimmed.length > 0 && !tooLong && !busy;
  const nearLimit = value.length > MAX_QUESTION_CHARS * 0.8;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, 200)}px`;
  }, [value, ref]);

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!canSend) return;
    onSend(trimmed);
    setValue("");
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };

  return (
    <form onSubmit={submit} className="relative" aria-label="Ask a question">
      <div className="flex items-end gap-2 rounded-2xl border border-line-strong bg-surface p-2 pl-4 shadow-[0_1px_2px_rgba(0,0,0,0.04),0_8px_24px_-16px_rgba(0,0,0,0.2)] transition-colors focus-within:border-accent-500 focus-within:ring-4 focus-within:ring-accent-100">
        <label htmlFor="question-input" className="sr-only">
          Your question
        </label>
        <textarea
          id="question-input"
          ref={ref}
          data-testid="question-input"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          onKeyDown={onKeyDown}
          rows={1}
          placeholder={placeholder}
          aria-invalid={tooLong || undefined}
          aria-describedby="question-hint"
          className="max-h-[200px] min-h-[28px] flex-1 resize-none bg-transparent py-1.5 text-[15.5px] leading-6 text-ink outline-none placeholder:text-muted/80 focus-visible:outline-none"
        />
        {busy && onStop ? (
          <button
            type="button"
            data-testid="stop-button"
            onClick={onStop}
            aria-label="Stop answering"
            title="Stop answering"
            className="grid size-9 shrink-0 place-items-center rounded-xl bg-ink text-white shadow-sm transition-colors hover:bg-ink-soft"
          >
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5" fill="currentColor">
              <rect x="4" y="4" width="12" height="12" rx="2" />
            </svg>
          </button>
        ) : (
        <button
          type="submit"
          data-testid="send-button"
          disabled={!canSend}
          aria-label={busy ? "Answering…" : "Send question"}
          className="grid size-9 shrink-0 place-items-center rounded-xl bg-accent-600 text-white shadow-sm transition-colors hover:bg-accent-700 disabled:cursor-not-allowed disabled:bg-stone-200 disabled:text-stone-400 disabled:shadow-none"
        >
          {busy ? (
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 animate-spin motion-reduce:animate-none" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M10 3a7 7 0 1 0 7 7" strokeLinecap="round" />
            </svg>
          ) : (
            <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
              <path d="M10 16V4M4.5 9.5 10 4l5.5 5.5" />
            </svg>
          )}
        </button>
        )}
      </div>
      <p id="question-hint" className="mt-2 flex justify-between gap-3 px-1 text-xs text-muted">
        <span className="hidden sm:inline">Answers quote your course notes. Enter to send, Shift+Enter for a new line.</span>
        <span className="sm:hidden">Answers quote your course notes.</span>
        {nearLimit ? (
          <span data-testid="char-count" className={`tabular-nums ${tooLong ? "font-medium text-rose-700" : ""}`}>
            {value.length.toLocaleString()} / {MAX_QUESTION_CHARS.toLocaleString()}
          </span>
        ) : null}
      </p>
    </form>
  );
}
