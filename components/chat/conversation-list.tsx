"use client";

import { useEffect, useRef, useState, type FormEvent, type ReactNode, type Ref } from "react";
import type { ConversationSummary } from "./types";

function relativeDay(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const today = new Date();
  const startOf = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((startOf(today) - startOf(d)) / 86_400_000);
  if (days <= 0) return new Intl.DateTimeFormat(undefined, { timeStyle: "short" }).format(d);
  if (days === 1) return "Yesterday";
  if (days < 7) return new Intl.DateTimeFormat(undefined, { weekday: "long" }).format(d);
  return new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }).format(d);
}

function IconButton({ label, onClick, children, testId, buttonRef }: { label: string; onClick: () => void; children: ReactNode; testId: string; buttonRef?: Ref<HTMLButtonElement> }) {
  return (
    <button
      ref={buttonRef}
      type="button"
      aria-label={label}
      title={label}
      data-testid={testId}
      onClick={onClick}
      className="grid size-7 place-items-center rounded-md text-muted transition-colors hover:bg-stone-200/70 hover:text-ink"
    >
      {children}
    </button>
  );
}

function ConversationRow({
  conversation,
  active,
  onSelect,
  onRename,
  onDelete,
}: {
  conversation: ConversationSummary;
  active: boolean;
  onSelect: () => void;
  onRename: (title: string) => Promise<void>;
  onDelete: () => Promise<void>;
}) {
  const [mode, setMode] = useState<"view" | "rename" | "confirm">("view");
  const [draft, setDraft] = useState(conversation.title);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const menuRef = useRef<HTMLButtonElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (mode === "rename") inputRef.current?.select();
    if (mode === "confirm") cancelRef.current?.focus();
  }, [mode]);

  const back = () => {
    setMode("view");
    setError(null);
    requestAnimationFrame(() => menuRef.current?.focus());
  };

  const submitRename = async (e: FormEvent) => {
    e.preventDefault();
    const title = draft.trim();
    if (!title || title === conversation.title) return back();
    setBusy(true);
    try {
      await onRename(title);
      back();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const confirmDelete = async () => {
    setBusy(true);
    try {
      await onDelete();
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  if (mode === "rename") {
    return (
      <li data-testid="conversation-item" data-conversation-id={conversation.id} data-active={active} className="px-2">
        <form onSubmit={submitRename} className="rounded-lg bg-surface p-1.5 ring-1 ring-accent-200">
          <label htmlFor={`rename-${conversation.id}`} className="sr-only">
            Conversation title
          </label>
          <input
            id={`rename-${conversation.id}`}
            ref={inputRef}
            data-testid="rename-input"
            value={draft}
            maxLength={120}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Escape") {
                e.preventDefault();
                setDraft(conversation.title);
                back();
              }
            }}
            disabled={busy}
            className="w-full rounded-md bg-canvas px-2 py-1.5 text-sm text-ink outline-none focus-visible:outline-none"
          />
          <div className="mt-1.5 flex justify-end gap-1">
            <button
              type="button"
              onClick={() => {
                setDraft(conversation.title);
                back();
              }}
              className="rounded-md px-2 py-1 text-xs font-medium text-muted hover:bg-canvas hover:text-ink"
            >
              Cancel
            </button>
            <button type="submit" data-testid="rename-save" disabled={busy} className="rounded-md bg-accent-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-accent-700 disabled:opacity-60">
              Save
            </button>
          </div>
          {error ? <p className="mt-1 text-xs text-rose-700">{error}</p> : null}
        </form>
      </li>
    );
  }

  if (mode === "confirm") {
    return (
      <li data-testid="conversation-item" data-conversation-id={conversation.id} data-active={active} className="px-2">
        <div role="group" aria-label="Delete conversation" className="rounded-lg bg-rose-50/70 p-2.5 ring-1 ring-rose-200/80">
          <p className="text-sm text-ink">
            Delete <span className="font-medium">“{conversation.title}”</span>?
          </p>
          <p className="mt-0.5 text-xs text-muted">Its questions and answers are removed for good.</p>
          <div className="mt-2 flex justify-end gap-1">
            <button ref={cancelRef} type="button" onClick={back} className="rounded-md px-2 py-1 text-xs font-medium text-muted hover:bg-surface hover:text-ink">
              Cancel
            </button>
            <button
              type="button"
              data-testid="confirm-delete"
              onClick={confirmDelete}
              disabled={busy}
              className="rounded-md bg-rose-600 px-2.5 py-1 text-xs font-medium text-white hover:bg-rose-700 disabled:opacity-60"
            >
              Delete
            </button>
          </div>
          {error ? <p className="mt-1 text-xs text-rose-700">{error}</p> : null}
        </div>
      </li>
    );
  }

  return (
    <li data-testid="conversation-item" data-conversation-id={conversation.id} data-active={active} className="group relative px-2">
      <a
        href={`?c=${encodeURIComponent(conversation.id)}`}
        onClick={(e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          onSelect();
        }}
        aria-current={active ? "page" : undefined}
        className={`block rounded-lg py-2 pl-3 pr-16 transition-colors ${active ? "bg-surface shadow-[0_1px_2px_rgba(0,0,0,0.05)] ring-1 ring-line" : "hover:bg-stone-200/50"}`}
      >
        <span data-testid="conversation-title" className={`block truncate text-sm ${active ? "font-medium text-ink" : "text-ink-soft"}`}>
          {conversation.title}
        </span>
        <span className="mt-0.5 block text-xs text-muted">{relativeDay(conversation.createdAt)}</span>
      </a>
      <div
        className={`absolute right-3.5 top-1/2 flex -translate-y-1/2 gap-0.5 transition-opacity ${active ? "opacity-100" : "opacity-100 lg:opacity-0 lg:group-hover:opacity-100 lg:group-focus-within:opacity-100"}`}
      >
        <IconButton
          label={`Rename “${conversation.title}”`}
          testId="rename-conversation"
          buttonRef={menuRef}
          onClick={() => {
            setDraft(conversation.title);
            setMode("rename");
          }}
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round">
            <path d="M12.5 4.5l3 3L8 15H5v-3l7.5-7.5Z" />
          </svg>
        </IconButton>
        <IconButton label={`Delete “${conversation.title}”`} testId="delete-conversation" onClick={() => setMode("confirm")}>
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round">
            <path d="M4.5 6h11M8 6V4.5h4V6M6 6l.7 9.5h6.6L14 6" />
          </svg>
        </IconButton>
      </div>
    </li>
  );
}

/** The course's conversations: start a new one, open, rename or delete one. */
export function ConversationList({
  conversations,
  phase,
  activeId,
  onNew,
  onSelect,
  onRename,
  onDelete,
  onRetry,
}: {
  conversations: ConversationSummary[];
  phase: "loading" | "ready" | "error";
  activeId: string | null;
  onNew: () => void;
  onSelect: (id: string) => void;
  onRename: (id: string, title: string) => Promise<void>;
  onDelete: (id: string) => Promise<void>;
  onRetry: () => void;
}) {
  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="p-3">
        <button
          type="button"
          data-testid="new-conversation"
          onClick={onNew}
          className="flex w-full items-center justify-center gap-2 rounded-xl border border-line-strong bg-surface px-3 py-2 text-sm font-medium text-ink shadow-[0_1px_2px_rgba(0,0,0,0.04)] transition-colors hover:border-accent-200 hover:bg-accent-50 hover:text-accent-800"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
            <path d="M10 4.5v11M4.5 10h11" />
          </svg>
          New conversation
        </button>
      </div>
      <h2 className="px-5 pb-1.5 pt-1 text-[11px] font-semibold uppercase tracking-wider text-muted">Conversations</h2>
      <div className="min-h-0 flex-1 overflow-y-auto pb-4">
        {phase === "loading" ? (
          <ul aria-label="Loading conversations" className="space-y-1 px-4 py-1">
            {[70, 85, 55].map((w) => (
              <li key={w} className="py-2">
                <div className="h-3 animate-pulse rounded bg-stone-200/70" style={{ width: `${w}%` }} />
                <div className="mt-2 h-2 w-12 animate-pulse rounded bg-stone-200/50" />
              </li>
            ))}
          </ul>
        ) : phase === "error" ? (
          <div role="alert" className="mx-3 rounded-lg bg-rose-50/70 p-3 text-sm text-rose-900 ring-1 ring-rose-200/70">
            Your conversations could not be loaded.
            <button type="button" onClick={onRetry} className="mt-1 block font-medium text-rose-800 underline underline-offset-2">
              Try again
            </button>
          </div>
        ) : conversations.length === 0 ? (
          <p data-testid="no-conversations" className="px-5 py-2 text-sm leading-relaxed text-muted">
            No conversations yet. Your questions and their answers are kept here.
          </p>
        ) : (
          <ul className="space-y-0.5" aria-label="Conversations">
            {conversations.map((c) => (
              <ConversationRow
                key={c.id}
                conversation={c}
                active={c.id === activeId}
                onSelect={() => onSelect(c.id)}
                onRename={(title) => onRename(c.id, title)}
                onDelete={() => onDelete(c.id)}
              />
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
