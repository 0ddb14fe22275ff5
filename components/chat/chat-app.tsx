"use client";

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { ChatStreamEvent } from "@/lib/chat/protocol";
import dynamic from "next/dynamic";
import { currentRevisionMap, SourcesContext, type SourceTarget, type SourcesContextValue } from "@/components/sources/sources-context";
import * as api from "./api";
import { AnswerView } from "./answer-view";
import { Composer } from "./composer";
import { ConversationList } from "./conversation-list";
import type { ConversationSummary, StoredMessage, ThreadState, Turn } from "./types";

// The page viewer (pdf.js and its worker) only ever runs in the browser, and only once a source is opened.
const SourcePanel = dynamic(() => import("@/components/sources/source-panel").then((m) => m.SourcePanel), { ssr: false });

const NEW_PREFIX = "new:";
const isDraftKey = (key: string | null) => key === null || key.startsWith(NEW_PREFIX);

const hidden = () => document.visibilityState === "hidden";
const sleep = (ms: number) => (hidden() ? Promise.resolve() : new Promise<void>((resolve) => window.setTimeout(resolve, ms)));
const nextFrame = () => (hidden() ? Promise.resolve() : new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

let sequence = 0;
const nextKey = (prefix: string) => `${prefix}${Date.now().toString(36)}${(sequence++).toString(36)}`;

/** Stored messages → turns: each user message opens a turn, the assistant message after it completes it. */
function turnsFromMessages(messages: StoredMessage[]): Turn[] {
  const turns: Turn[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      turns.push({ key: m.id, question: m.content, phase: "done", progress: null, parts: [], answer: null, error: null });
    } else {
      const last = turns[turns.length - 1];
      if (!last) continue;
      if (m.answer) last.answer = m.answer;
      else {
        last.phase = "failed";
        last.error = "This answer was not stored.";
      }
    }
  }
  return turns;
}

function updateTurn(thread: ThreadState | undefined, turnKey: string, fn: (t: Turn) => Turn): ThreadState | undefined {
  if (!thread) return thread;
  return { ...thread, turns: thread.turns.map((t) => (t.key === turnKey ? fn(t) : t)) };
}

function applyEvent(turn: Turn, event: ChatStreamEvent): Turn {
  switch (event.type) {
    case "stage":
      return { ...turn, progress: { ...turn.progress, stage: event.stage } };
    case "retrieved":
      return { ...turn, progress: { stage: turn.progress?.stage ?? "searching", ...turn.progress, retrieved: { hits: event.hits, passed: event.passed } } };
    case "packed":
      return { ...turn, progress: { ...turn.progress, stage: "reading", passages: event.passages } };
    case "claim":
    case "held": {
      const parts = [...turn.parts];
      const part = parts[event.partIndex] ?? { ask: event.ask, state: "supported", claims: [] };
      for (let i = 0; i < event.partIndex; i++) parts[i] ??= { ask: "", state: "supported", claims: [] };
      const held = part.held ?? 0;
      parts[event.partIndex] =
        event.type === "held"
          ? { ...part, held: held + 1 }
          : // A repaired claim takes the place of one held in its part.
            { ...part, state: event.state, claims: [...part.claims, event.claim], held: event.repaired ? Math.max(0, held - 1) : held };
      return { ...turn, parts };
    }
    case "status":
      return { ...turn, answer: event.answer };
    case "saved":
      return { ...turn, phase: "done" };
    case "error":
      return { ...turn, phase: "failed", error: event.message };
    default:
      return turn;
  }
}

export function ChatApp({
  courseSlug,
  courseTitle,
  initialConversationId,
  examples,
  notice = null,
}: {
  courseSlug: string;
  courseTitle: string;
  initialConversationId: string | null;
  examples: string[];
  /** A one-off note for the top of the thread (e.g. a student sent here from an instructor page). */
  notice?: string | null;
}) {
  const [noticeShown, setNoticeShown] = useState(Boolean(notice));
  const [conversations, setConversations] = useState<ConversationSummary[]>([]);
  const [listPhase, setListPhase] = useState<"loading" | "ready" | "error">("loading");
  const [activeKey, setActiveKey] = useState<string | null>(initialConversationId);
  const [threads, setThreads] = useState<Record<string, ThreadState>>({});
  const [documents, setDocuments] = useState<api.DocumentRevisions[] | null>(null);
  const [openChip, setOpenChip] = useState<string | null>(null);
  const [source, setSource] = useState<SourceTarget | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);

  const thread = activeKey ? threads[activeKey] : undefined;
  const turns = thread?.turns ?? [];
  const busy = turns.some((t) => t.phase === "streaming") || thread?.phase === "loading";
  const activeConversation = activeKey && !isDraftKey(activeKey) ? conversations.find((c) => c.id === activeKey) : undefined;

  // ── Loading ────────────────────────────────────────────────────────────────────────────────
  const loadConversations = useCallback(async () => {
    setListPhase("loading");
    try {
      setConversations(await api.listConversations(courseSlug));
      setListPhase("ready");
    } catch {
      setListPhase("error");
    }
  }, [courseSlug]);

  const loadDocuments = useCallback(async () => {
    try {
      setDocuments(await api.listDocuments(courseSlug));
    } catch {
      // Without it only the "superseded" notes are missing; citations still resolve.
    }
  }, [courseSlug]);

  useEffect(() => {
    void loadConversations();
    void loadDocuments();
    const onVisible = () => {
      if (document.visibilityState === "visible") void loadDocuments();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [loadConversations, loadDocuments]);

  const loadThread = useCallback(
    async (id: string) => {
      setThreads((prev) => ({ ...prev, [id]: { phase: "loading", turns: [] } }));
      try {
        const { messages } = await api.getConversation(courseSlug, id);
        setThreads((prev) => ({ ...prev, [id]: { phase: "ready", turns: turnsFromMessages(messages) } }));
      } catch (e) {
        setThreads((prev) => ({
          ...prev,
          [id]: e instanceof api.NotFoundError ? { phase: "missing", turns: [] } : { phase: "error", turns: [], error: (e as Error).message },
        }));
      }
    },
    [courseSlug],
  );

  useEffect(() => {
    if (activeKey && !isDraftKey(activeKey) && !threads[activeKey]) void loadThread(activeKey);
  }, [activeKey, threads, loadThread]);

  // The open conversation lives in the URL (?c=…), so a reload shows the same thread.
  useEffect(() => {
    const url = new URL(window.location.href);
    const want = activeKey && !isDraftKey(activeKey) ? activeKey : null;
    if (url.searchParams.get("c") === want) return;
    if (want) url.searchParams.set("c", want);
    else url.searchParams.delete("c");
    window.history.replaceState(window.history.state, "", url);
  }, [activeKey]);

  // ── Scrolling: follow the answer while it streams, unless the student scrolled up ──────────
  const onScroll = () => {
    const el = scrollerRef.current;
    if (!el) return;
    stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 96;
  };
  useLayoutEffect(() => {
    const content = contentRef.current;
    const scroller = scrollerRef.current;
    if (!content || !scroller) return;
    const observer = new ResizeObserver(() => {
      if (stickToBottom.current) scroller.scrollTop = scroller.scrollHeight;
    });
    observer.observe(content);
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    stickToBottom.current = true;
  }, [activeKey]);

  // ── Asking ────────────────────────────────────────────────────────────────────────────────
  const threadsRef = useRef(threads);
  const stopRef = useRef<AbortController | null>(null);
  useLayoutEffect(() => {
    threadsRef.current = threads;
  });

  const send = useCallback(
    (question: string) => {
      // A conversation that is gone (or could not be loaded) cannot take a follow-up: start a new one.
      const current = activeKey ? threadsRef.current[activeKey] : undefined;
      const usable = activeKey && current?.phase !== "missing" && current?.phase !== "error";
      let threadKey = usable ? activeKey : nextKey(NEW_PREFIX);
      const conversationId = isDraftKey(threadKey) ? null : threadKey;
      const turnKey = nextKey("turn-");
      const turn: Turn = { key: turnKey, question, phase: "streaming", progress: null, parts: [], answer: null, error: null };
      stickToBottom.current = true;
      setActiveKey(threadKey);
      setThreads((prev) => {
        const existing = prev[threadKey];
        return { ...prev, [threadKey]: { phase: "ready", turns: [...(existing?.turns ?? []), turn] } };
      });

      // Stop (or leaving the page) aborts the request; the server then cancels the answer and its model call.
      const stop = new AbortController();
      stopRef.current = stop;
      // The thread's key is read when the update is made, not when React runs it: the "conversation"
      // event re-keys the thread right after "status", and an update run late under the new key
      // found no thread there and was dropped (the answer then showed as "Not answered").
      const update = (fn: (t: Turn) => Turn) => {
        const key = threadKey;
        setThreads((prev) => {
          const next = updateTurn(prev[key], turnKey, fn);
          return next ? { ...prev, [key]: next } : prev;
        });
      };

      const onEvent = async (event: ChatStreamEvent) => {
        if (event.type === "conversation") {
          const id = event.conversationId;
          if (id !== threadKey) {
            const old = threadKey;
            threadKey = id;
            setThreads((prev) => {
              const { [old]: moved, ...rest } = prev;
              return { ...rest, [id]: moved ?? { phase: "ready", turns: [turn] } };
            });
            setActiveKey((k) => (k === old ? id : k));
          }
          setConversations((list) =>
            list.some((c) => c.id === id) ? list : [{ id, title: event.title, createdAt: new Date().toISOString() }, ...list],
          );
          return;
        }
        update((t) => applyEvent(t, event));
        // Events that arrive in one network chunk would render as one: give each stage a frame and
        // each claim a beat, so the student sees the answer build up claim by claim.
        if (event.type === "claim" || event.type === "held") await sleep(90);
        else if (event.type === "stage" || event.type === "packed" || event.type === "retrieved") await nextFrame();
      };

      // A full queue (503 with Retry-After) is waited out once, with a countdown, before the question is sent again.
      const attempt = async (retried: boolean): Promise<void> => {
        try {
          await api.streamQuestion(courseSlug, { conversationId, question }, onEvent, stop.signal);
        } catch (e) {
          if (!(e instanceof api.BusyError) || retried) throw e;
          for (let left = Math.ceil(e.retryAfter); left > 0 && !stop.signal.aborted; left--) {
            update((t) => ({ ...t, progress: { stage: "busy", retryIn: left } }));
            await new Promise<void>((resolve) => window.setTimeout(resolve, 1000)); // a real second, even in a hidden tab
          }
          update((t) => ({ ...t, progress: null }));
          if (!stop.signal.aborted) await attempt(true);
        }
      };
      attempt(false)
        .then(() =>
          update((t) =>
            t.phase !== "streaming"
              ? t
              : t.answer
                ? { ...t, phase: "done" }
                : { ...t, phase: "failed", error: "The answer stopped before it was complete. Nothing was saved; try again." },
          ),
        )
        .catch((e: Error) =>
          update((t) => ({
            ...t,
            phase: "failed",
            error: stop.signal.aborted ? "You stopped this answer. Nothing of it was saved." : e.message || "The question could not be sent. Try again.",
            busy: !stop.signal.aborted && e instanceof api.BusyError,
          })),
        )
        .finally(() => {
          if (stopRef.current === stop) stopRef.current = null;
          void loadDocuments();
        });
    },
    [activeKey, courseSlug, loadDocuments],
  );

  // ── Conversations ─────────────────────────────────────────────────────────────────────────
  const startNew = useCallback(() => {
    setActiveKey(null);
    setDrawerOpen(false);
    setSource(null);
    requestAnimationFrame(() => inputRef.current?.focus());
  }, []);

  const select = useCallback((id: string) => {
    setActiveKey(id);
    setDrawerOpen(false);
    setSource(null);
    setOpenChip(null);
  }, []);

  const rename = useCallback(
    async (id: string, title: string) => {
      await api.renameConversation(courseSlug, id, title);
      setConversations((list) => list.map((c) => (c.id === id ? { ...c, title } : c)));
    },
    [courseSlug],
  );

  const remove = useCallback(
    async (id: string) => {
      await api.deleteConversation(courseSlug, id);
      setConversations((list) => list.filter((c) => c.id !== id));
      setThreads((prev) => {
        const { [id]: _gone, ...rest } = prev;
        return rest;
      });
      if (activeKey === id) {
        setActiveKey(null);
        setSource(null);
      }
    },
    [activeKey, courseSlug],
  );

  // ── Sources ───────────────────────────────────────────────────────────────────────────────
  const currentRevisions = useMemo(() => currentRevisionMap(documents ?? []), [documents]);

  const closeSource = useCallback(() => {
    setSource((s) => {
      const back = s?.returnFocus;
      if (back?.isConnected) requestAnimationFrame(() => back.focus());
      return null;
    });
  }, []);

  const sources: SourcesContextValue = useMemo(
    () => ({
      courseSlug,
      currentRevision: (documentId) => currentRevisions.get(documentId) ?? null,
      openChip,
      setOpenChip,
      source,
      openSource: setSource,
    }),
    [courseSlug, currentRevisions, openChip, source],
  );

  // The drawer of conversations on phones: Escape closes it.
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setDrawerOpen(false);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [drawerOpen]);

  const list = (
    <ConversationList
      conversations={conversations}
      phase={listPhase}
      activeId={activeKey}
      onNew={startNew}
      onSelect={select}
      onRename={rename}
      onDelete={remove}
      onRetry={loadConversations}
    />
  );

  // With the source panel open, the conversation list folds away until the screen is very wide.
  // (Whole class names, so Tailwind sees them.)
  const sidebarShown = source ? "2xl:block" : "lg:block";
  const whenSidebarShown = source ? "2xl:hidden" : "lg:hidden";
  const title = activeConversation?.title ?? (turns[0]?.question || "New conversation");
  const showEmpty = !thread || (thread.phase === "ready" && turns.length === 0);

  return (
    <SourcesContext value={sources}>
      <div className="flex min-h-0 flex-1">
        {/* Conversations: a column on wide screens, a drawer on phones. */}
        <nav aria-label="Conversations" className={`hidden w-72 shrink-0 border-r border-line bg-stone-100/50 ${sidebarShown}`}>
          {list}
        </nav>
        {drawerOpen ? (
          <div className={`fixed inset-0 z-40 ${whenSidebarShown}`} data-testid="conversation-drawer">
            <button type="button" aria-label="Close conversations" className="absolute inset-0 bg-stone-900/25 backdrop-blur-[1px]" onClick={() => setDrawerOpen(false)} />
            <nav aria-label="Conversations" className="absolute inset-y-0 left-0 flex w-[86%] max-w-xs flex-col bg-canvas shadow-2xl">
              <div className="flex items-center justify-between border-b border-line px-4 py-3">
                <span className="text-sm font-semibold text-ink">{courseTitle}</span>
                <button
                  type="button"
                  autoFocus
                  onClick={() => setDrawerOpen(false)}
                  aria-label="Close conversations"
                  className="grid size-8 place-items-center rounded-lg text-muted hover:bg-stone-200/60 hover:text-ink"
                >
                  <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round">
                    <path d="M5 5l10 10M15 5 5 15" />
                  </svg>
                </button>
              </div>
              <div className="min-h-0 flex-1">{list}</div>
            </nav>
          </div>
        ) : null}

        {/* The thread. */}
        <section aria-label="Conversation" className="flex min-w-0 flex-1 flex-col">
          <div className="flex h-12 shrink-0 items-center gap-2 border-b border-line/70 px-3 sm:px-5">
            <button
              type="button"
              data-testid="open-conversations"
              onClick={() => setDrawerOpen(true)}
              aria-label="Show conversations"
              className={`grid size-9 place-items-center rounded-lg text-ink-soft hover:bg-stone-200/60 ${whenSidebarShown}`}
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round">
                <path d="M3.5 6h13M3.5 10h13M3.5 14h8" />
              </svg>
            </button>
            <h1 data-testid="thread-title" className="min-w-0 flex-1 truncate text-sm font-medium text-ink-soft">
              {title}
            </h1>
            <button
              type="button"
              onClick={startNew}
              aria-label="New conversation"
              className={`grid size-9 place-items-center rounded-lg text-ink-soft hover:bg-stone-200/60 ${whenSidebarShown}`}
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" strokeLinejoin="round">
                <path d="M10 4.5v11M4.5 10h11" />
              </svg>
            </button>
          </div>

          <div ref={scrollerRef} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto" data-testid="thread-scroll">
            <div ref={contentRef} className="mx-auto w-full max-w-3xl px-4 pb-10 pt-8 sm:px-8">
              {notice && noticeShown ? (
                <div role="status" data-testid="page-notice" className="mb-6 flex items-start gap-3 rounded-xl bg-surface px-4 py-3 text-sm text-ink-soft ring-1 ring-line">
                  <span className="flex-1">{notice}</span>
                  <button type="button" onClick={() => setNoticeShown(false)} className="text-xs font-medium text-muted hover:text-ink">
                    Dismiss
                  </button>
                </div>
              ) : null}
              {thread?.phase === "loading" ? (
                <ThreadSkeleton />
              ) : thread?.phase === "missing" ? (
                <StateMessage title="This conversation no longer exists" body="It may have been deleted. Start a new one to keep asking." action={{ label: "New conversation", onClick: startNew }} />
              ) : thread?.phase === "error" ? (
                <StateMessage
                  title="This conversation could not be loaded"
                  body={thread.error ?? "Check your connection and try again."}
                  action={{ label: "Try again", onClick: () => activeKey && void loadThread(activeKey) }}
                  tone="error"
                />
              ) : showEmpty ? (
                <EmptyState examples={examples} onAsk={send} />
              ) : (
                <ol className="space-y-12" data-testid="thread">
                  {turns.map((turn) => (
                    <li key={turn.key} data-testid="turn" className="space-y-5">
                      <div className="flex justify-end">
                        <p data-testid="question" className="max-w-[85%] whitespace-pre-wrap rounded-2xl rounded-br-md bg-accent-600/[0.08] px-4 py-2.5 text-[15px] leading-relaxed text-ink ring-1 ring-inset ring-accent-600/10">
                          {turn.question}
                        </p>
                      </div>
                      <AnswerView turn={turn} onRetry={busy ? undefined : () => send(turn.question)} />
                    </li>
                  ))}
                </ol>
              )}
            </div>
          </div>

          <div className="shrink-0 bg-gradient-to-t from-canvas via-canvas to-canvas/0 px-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] pt-2 sm:px-8">
            <div className="mx-auto w-full max-w-3xl">
              <Composer onSend={send} onStop={() => stopRef.current?.abort()} busy={busy} inputRef={inputRef} placeholder={turns.length ? "Ask a follow-up…" : "Ask about your course notes…"} />
            </div>
          </div>
        </section>

        {source ? <SourcePanel target={source} onClose={closeSource} /> : null}
      </div>
    </SourcesContext>
  );
}

function EmptyState({ examples, onAsk }: { examples: string[]; onAsk: (q: string) => void }) {
  return (
    <div data-testid="empty-state" className="mx-auto flex max-w-xl flex-col items-center pt-[6vh] text-center">
      <span aria-hidden="true" className="grid size-12 place-items-center rounded-2xl bg-accent-50 text-accent-700 ring-1 ring-inset ring-accent-100">
        <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
          <path d="M4 6.5c2.7-1.5 5.3-1.5 8 0v12c-2.7-1.5-5.3-1.5-8 0zM20 6.5c-2.7-1.5-5.3-1.5-8 0v12c2.7-1.5 5.3-1.5 8 0z" />
        </svg>
      </span>
      <h2 className="mt-5 text-2xl font-semibold tracking-tight text-ink">Ask anything about your course notes</h2>
      <p className="mt-2 max-w-md text-[15px] leading-relaxed text-muted">
        Every answer quotes the course PDFs. Open a citation to read the passage, or the page it sits on.
      </p>
      <div className="mt-8 w-full">
        <p className="mb-2.5 text-xs font-medium text-muted">Try one of these</p>
        <ul className="grid gap-2">
          {examples.map((q) => (
            <li key={q}>
              <button
                type="button"
                data-testid="example-question"
                onClick={() => onAsk(q)}
                className="group flex w-full items-center justify-between gap-3 rounded-xl border border-line bg-surface px-4 py-3 text-left text-[15px] text-ink-soft shadow-[0_1px_2px_rgba(0,0,0,0.03)] transition hover:border-accent-200 hover:text-ink"
              >
                {q}
                <span aria-hidden="true" className="text-accent-600 opacity-60 transition group-hover:translate-x-0.5 group-hover:opacity-100">
                  →
                </span>
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

function ThreadSkeleton() {
  return (
    <div aria-label="Loading the conversation" role="status" className="space-y-10">
      {[0, 1].map((i) => (
        <div key={i} className="space-y-4">
          <div className="ml-auto h-10 w-1/2 animate-pulse rounded-2xl bg-stone-200/60" />
          <div className="h-6 w-40 animate-pulse rounded-full bg-stone-200/60" />
          <div className="space-y-2.5">
            <div className="h-3.5 w-11/12 animate-pulse rounded bg-stone-200/60" />
            <div className="h-3.5 w-4/5 animate-pulse rounded bg-stone-200/60" />
          </div>
        </div>
      ))}
    </div>
  );
}

function StateMessage({ title, body, action, tone = "neutral" }: { title: string; body: string; action: { label: string; onClick: () => void }; tone?: "neutral" | "error" }) {
  return (
    <div role={tone === "error" ? "alert" : undefined} data-testid="thread-message" className="mx-auto max-w-md pt-[8vh] text-center">
      <h2 className="text-lg font-semibold text-ink">{title}</h2>
      <p className="mt-2 text-sm leading-relaxed text-muted">{body}</p>
      <button type="button" onClick={action.onClick} className="mt-5 rounded-lg bg-accent-600 px-4 py-2 text-sm font-medium text-white hover:bg-accent-700">
        {action.label}
      </button>
    </div>
  );
}
