"use client";

import { formatBytes, pluralize } from "./format";
import { ProgressBar } from "./progress-bar";
import type { RevisionView } from "./types";

/** Where one chosen file is on its way: sending, then the server's processing, then the outcome. */
export type UploadState =
  | { phase: "waiting" }
  | { phase: "uploading"; fraction: number }
  /** Accepted by the server; the revision's own status says how far processing has got. */
  | { phase: "accepted"; revisionId: string; revisionNumber: number; documentTitle: string }
  | { phase: "unchanged"; message: string; documentTitle: string }
  | { phase: "rejected"; message: string };

export interface UploadItem {
  key: string;
  fileName: string;
  size: number;
  /** Set when the file was uploaded as a new revision of this document. */
  target?: { documentId: string; title: string };
  state: UploadState;
}

type RowState = "waiting" | "uploading" | "queued" | "extracting" | "indexing" | "ready" | "failed" | "rejected" | "unchanged";

interface RowView {
  rowState: RowState;
  label: string;
  /** 0..100 overall, undefined for indeterminate, null for no bar. */
  percent: number | undefined | null;
  tone: "accent" | "success" | "danger" | "muted";
  message?: string;
  messageKind?: "error" | "notice" | "warning";
}

/**
 * One bar for the whole journey: sending the bytes fills the first 40%, reading pages the next
 * 50% (page by page), indexing the rest.
 */
export function describeUpload(item: UploadItem, revision: RevisionView | undefined): RowView {
  const s = item.state;
  switch (s.phase) {
    case "waiting":
      return { rowState: "waiting", label: "Waiting to upload", percent: 0, tone: "muted" };
    case "uploading": {
      const pct = Math.round(s.fraction * 100);
      return { rowState: "uploading", label: pct >= 100 ? "Uploaded, checking file" : `Uploading · ${pct}%`, percent: s.fraction * 40, tone: "accent" };
    }
    case "rejected":
      return { rowState: "rejected", label: "Not accepted", percent: null, tone: "danger", message: s.message, messageKind: "error" };
    case "unchanged":
      return { rowState: "unchanged", label: "Already uploaded", percent: null, tone: "muted", message: s.message, messageKind: "notice" };
    case "accepted": {
      const status = revision?.status ?? "queued";
      const pages = revision?.pageCount ?? null;
      if (status === "queued") return { rowState: "queued", label: "Queued for reading", percent: 40, tone: "accent" };
      if (status === "extracting") {
        const done = pages ? Math.min(revision!.progress, pages) : 0;
        return {
          rowState: "extracting",
          label: pages ? `Reading pages · ${done} of ${pages}` : "Reading pages",
          percent: pages ? 40 + (50 * done) / pages : 42,
          tone: "accent",
        };
      }
      if (status === "indexing") return { rowState: "indexing", label: pages ? `Indexing ${pluralize(pages, "page")}` : "Indexing", percent: 94, tone: "accent" };
      if (status === "ready") {
        return {
          rowState: "ready",
          label: pages ? `Ready · ${pluralize(pages, "page")}` : "Ready",
          percent: 100,
          tone: "success",
          message: revision?.warning ?? undefined,
          messageKind: revision?.warning ? "warning" : undefined,
        };
      }
      return {
        rowState: "failed",
        label: "Failed",
        percent: null,
        tone: "danger",
        message: revision?.error ?? "The file could not be read.",
        messageKind: "error",
      };
    }
  }
}

export function isSettled(view: RowView): boolean {
  return view.rowState === "ready" || view.rowState === "failed" || view.rowState === "rejected" || view.rowState === "unchanged";
}

const labelTone: Record<RowState, string> = {
  waiting: "text-muted",
  uploading: "text-accent-700",
  queued: "text-accent-700",
  extracting: "text-accent-700",
  indexing: "text-accent-700",
  ready: "text-emerald-700",
  failed: "text-rose-700",
  rejected: "text-rose-700",
  unchanged: "text-ink-soft",
};

export function UploadRow({ item, view, onDismiss }: { item: UploadItem; view: RowView; onDismiss?: () => void }) {
  const s = item.state;
  const destination =
    s.phase === "accepted"
      ? `${s.documentTitle} · revision ${s.revisionNumber}`
      : item.target
        ? `New revision of ${item.target.title}`
        : s.phase === "unchanged"
          ? s.documentTitle
          : null;

  return (
    <li
      data-testid="upload-row"
      data-state={view.rowState}
      data-file-name={item.fileName}
      aria-label={`Upload of ${item.fileName}`}
      className="px-5 py-4 sm:px-6"
    >
      <div className="flex items-start gap-3">
        <FileIcon state={view.rowState} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-col gap-0.5 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
            <p className="truncate text-sm font-medium text-ink" title={item.fileName}>
              {item.fileName}
            </p>
            <p data-testid="upload-status" aria-live="polite" className={`shrink-0 text-[13px] font-medium ${labelTone[view.rowState]}`}>
              {view.label}
            </p>
          </div>
          <p className="mt-0.5 truncate text-[13px] text-muted">
            {formatBytes(item.size)}
            {destination ? ` · ${destination}` : ""}
          </p>
          {view.percent !== null ? (
            <div className="mt-2.5">
              <ProgressBar value={view.percent} tone={view.tone} label={`${item.fileName}: ${view.label}`} testId="upload-progress" />
            </div>
          ) : null}
          {view.message ? (
            <p
              data-testid="upload-message"
              role={view.messageKind === "error" ? "alert" : "status"}
              className={`mt-2 rounded-lg px-3 py-2 text-sm leading-relaxed ${
                view.messageKind === "error"
                  ? "bg-rose-50 text-rose-800"
                  : view.messageKind === "warning"
                    ? "bg-amber-50 text-amber-900"
                    : "bg-canvas text-ink-soft"
              }`}
            >
              {view.message}
            </p>
          ) : null}
        </div>
        {onDismiss ? (
          <button
            type="button"
            onClick={onDismiss}
            aria-label={`Dismiss ${item.fileName}`}
            className="-mr-1.5 -mt-1 shrink-0 rounded-md p-1.5 text-muted transition hover:bg-canvas hover:text-ink"
          >
            <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
              <path d="m4 4 8 8M12 4l-8 8" />
            </svg>
          </button>
        ) : null}
      </div>
    </li>
  );
}

function FileIcon({ state }: { state: RowState }) {
  const tone =
    state === "ready"
      ? "bg-emerald-50 text-emerald-600"
      : state === "failed" || state === "rejected"
        ? "bg-rose-50 text-rose-600"
        : state === "unchanged" || state === "waiting"
          ? "bg-canvas text-muted"
          : "bg-accent-50 text-accent-600";
  return (
    <span aria-hidden="true" className={`mt-0.5 grid size-8 shrink-0 place-items-center rounded-lg ${tone}`}>
      {state === "ready" ? (
        <svg viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <path d="m3.5 8.5 3 3 6-7" />
        </svg>
      ) : state === "failed" || state === "rejected" ? (
        <svg viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round">
          <path d="M8 4.5v4.5M8 11.5v.01" />
        </svg>
      ) : (
        <svg viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round">
          <path d="M4 1.75h5L12.25 5v9.25H4z" />
          <path d="M9 1.75V5h3.25" />
        </svg>
      )}
    </span>
  );
}
