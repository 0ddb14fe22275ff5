"use client";

import type { RevisionStatus } from "./types";

const styles: Record<RevisionStatus, { label: string; className: string; dot: string }> = {
  queued: { label: "Queued", className: "bg-stone-100 text-ink-soft ring-stone-200", dot: "bg-stone-400" },
  extracting: { label: "Reading pages", className: "bg-accent-50 text-accent-700 ring-accent-100", dot: "bg-accent-500 animate-pulse" },
  indexing: { label: "Indexing", className: "bg-accent-50 text-accent-700 ring-accent-100", dot: "bg-accent-500 animate-pulse" },
  ready: { label: "Ready", className: "bg-emerald-50 text-emerald-800 ring-emerald-100", dot: "bg-emerald-500" },
  failed: { label: "Failed", className: "bg-rose-50 text-rose-800 ring-rose-100", dot: "bg-rose-500" },
};

/** The revision's processing status as a small labelled pill. */
export function StatusPill({ status, detail, testId }: { status: RevisionStatus; detail?: string; testId?: string }) {
  const s = styles[status];
  return (
    <span
      data-testid={testId}
      data-status={status}
      className={`inline-flex items-center gap-1.5 whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${s.className}`}
    >
      <span aria-hidden="true" className={`size-1.5 rounded-full ${s.dot}`} />
      {s.label}
      {detail ? <span className="font-normal opacity-80">{detail}</span> : null}
    </span>
  );
}
