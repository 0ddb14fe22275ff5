"use client";

import { useId, useRef, useState } from "react";
import { pluralize } from "./format";
import { RevisionRow } from "./revision-row";
import type { DocumentView, RevisionView } from "./types";

interface DocumentCardProps {
  document: DocumentView;
  pendingToggles: ReadonlySet<string>;
  toggleErrors: Readonly<Record<string, string>>;
  onToggleCorrection: (revision: RevisionView) => void;
  onUploadRevision: (document: DocumentView, file: File) => void;
  /** Removes the document from the course; resolves to an error message, or null on success. */
  onDelete: (document: DocumentView) => Promise<string | null>;
}

/** A document with all its revisions, newest first, and the action to upload the next one. */
export function DocumentCard({ document: d, pendingToggles, toggleErrors, onToggleCorrection, onUploadRevision, onDelete }: DocumentCardProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const headingId = useId();
  const current = d.revisions.find((r) => r.id === d.currentRevisionId);

  let summary: string;
  if (current) {
    summary = `Revision ${current.number} is current${current.pageCount ? ` · ${pluralize(current.pageCount, "page")}` : ""}`;
  } else if (d.revisions.some((r) => r.status !== "failed")) {
    summary = "Not searchable yet: the first revision is being processed";
  } else {
    summary = "Not searchable: no revision could be read";
  }

  return (
    <li
      data-testid="document-row"
      data-document-id={d.id}
      data-document-title={d.title}
      aria-labelledby={headingId}
      className="overflow-hidden rounded-2xl border border-line bg-surface shadow-[0_1px_2px_rgba(0,0,0,0.03)]"
    >
      <div className="flex flex-col gap-3 border-b border-line px-5 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <div className="min-w-0">
          <h3 id={headingId} data-testid="document-title" className="truncate text-base font-semibold tracking-tight text-ink" title={d.title}>
            {d.title}
          </h3>
          <p className="mt-0.5 text-[13px] text-muted">
            {summary} · {pluralize(d.revisions.length, "revision")}
          </p>
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {confirming ? (
            <span className="flex items-center gap-2 text-[13px]" role="group" aria-label={`Delete ${d.title}?`}>
              <span className="text-ink-soft">Delete for students? Old answers keep their quotes.</span>
              <button
                type="button"
                data-testid="confirm-delete"
                onClick={async () => {
                  const error = await onDelete(d);
                  setDeleteError(error);
                  if (error) setConfirming(false);
                }}
                className="rounded-lg bg-rose-600 px-3 py-1.5 font-medium text-white hover:bg-rose-700"
              >
                Delete
              </button>
              <button type="button" onClick={() => setConfirming(false)} className="rounded-lg px-2 py-1.5 text-muted hover:text-ink">
                Cancel
              </button>
            </span>
          ) : (
            <button
              type="button"
              data-testid="delete-document"
              onClick={() => setConfirming(true)}
              className="rounded-lg px-2.5 py-1.5 text-[13px] text-muted transition hover:bg-rose-50 hover:text-rose-700"
            >
              Delete
            </button>
          )}
          <input
            ref={inputRef}
            type="file"
            accept="application/pdf,.pdf"
            className="sr-only"
            tabIndex={-1}
            data-testid="revision-input"
            aria-label={`Upload a new revision of ${d.title}`}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file) onUploadRevision(d, file);
              e.currentTarget.value = "";
            }}
          />
          <button
            type="button"
            data-testid="upload-revision"
            onClick={() => inputRef.current?.click()}
            className="inline-flex items-center gap-1.5 rounded-lg border border-line bg-surface px-3 py-1.5 text-[13px] font-medium text-ink transition hover:border-accent-200 hover:bg-accent-50 hover:text-accent-700"
          >
            <svg aria-hidden="true" viewBox="0 0 16 16" className="size-3.5" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round">
              <path d="M8 11V3M4.5 6.5 8 3l3.5 3.5M3 13h10" />
            </svg>
            Upload new revision
          </button>
        </div>
      </div>
      {deleteError ? (
        <p role="alert" className="border-b border-line bg-rose-50 px-5 py-2 text-[13px] text-rose-800 sm:px-6">
          {deleteError}
        </p>
      ) : null}
      <ol aria-label={`Revisions of ${d.title}`} className="divide-y divide-line">
        {d.revisions.map((r) => (
          <RevisionRow
            key={r.id}
            revision={r}
            isCurrent={r.id === d.currentRevisionId}
            pending={pendingToggles.has(r.id)}
            toggleError={toggleErrors[r.id]}
            onToggleCorrection={onToggleCorrection}
          />
        ))}
      </ol>
    </li>
  );
}
