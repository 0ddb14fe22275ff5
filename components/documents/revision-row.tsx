"use client";

import { formatBytes, pluralize, shortSha } from "./format";
import { LocalTime } from "./local-time";
import { ProgressBar } from "./progress-bar";
import { StatusPill } from "./status-pill";
import { isInFlight, type RevisionView } from "./types";

interface RevisionRowProps {
  revision: RevisionView;
  isCurrent: boolean;
  /** A correction toggle is in flight for this revision. */
  pending: boolean;
  toggleError?: string;
  onToggleCorrection: (revision: RevisionView) => void;
}

/** One revision of a document: number, status, pages, upload time, short hash, findings. */
export function RevisionRow({ revision: r, isCurrent, pending, toggleError, onToggleCorrection }: RevisionRowProps) {
  const inFlight = isInFlight(r.status);
  const pagesKnown = r.pageCount !== null && r.pageCount > 0;
  const detail =
    r.status === "extracting" && pagesKnown ? `${Math.min(r.progress, r.pageCount!)} of ${r.pageCount}` : undefined;

  return (
    <li
      data-testid="revision-row"
      data-revision-number={r.number}
      data-status={r.status}
      data-current={isCurrent ? "true" : "false"}
      aria-label={`Revision ${r.number}${isCurrent ? " (current)" : ""}`}
      className={`px-5 py-4 sm:px-6 ${isCurrent ? "bg-accent-50/40" : ""}`}
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between sm:gap-6">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-sm font-medium text-ink">Revision {r.number}</span>
            {isCurrent ? (
              <span
                data-testid="current-badge"
                className="rounded-full bg-accent-600 px-2 py-0.5 text-[11px] font-semibold uppercase tracking-wide text-white"
                title="The revision students' questions are answered from"
              >
                Current
              </span>
            ) : null}
            {r.isCorrection ? (
              <span
                data-testid="correction-badge"
                className="rounded-full bg-amber-50 px-2 py-0.5 text-[11px] font-semibold uppercase tracking-wide text-amber-800 ring-1 ring-inset ring-amber-200"
                title="Marked by an instructor: supersedes conflicting passages"
              >
                Correction
              </span>
            ) : null}
            <StatusPill status={r.status} detail={detail} testId="revision-status" />
          </div>

          <dl className="mt-1.5 flex flex-wrap gap-x-4 gap-y-1 text-[13px] text-muted">
            <div className="min-w-0 max-w-full">
              <dt className="sr-only">File</dt>
              <dd className="truncate" title={r.fileName}>
                {r.fileName}
              </dd>
            </div>
            {pagesKnown ? (
              <div>
                <dt className="sr-only">Pages</dt>
                <dd data-testid="revision-pages">{pluralize(r.pageCount!, "page")}</dd>
              </div>
            ) : null}
            <div>
              <dt className="sr-only">Size</dt>
              <dd>{formatBytes(r.size)}</dd>
            </div>
            <div>
              <dt className="sr-only">Uploaded</dt>
              <dd>
                <LocalTime iso={r.uploadedAt} />
              </dd>
            </div>
            <div>
              <dt className="sr-only">SHA-256</dt>
              <dd>
                <code data-testid="revision-sha" title={`SHA-256 ${r.sha256}`} className="font-mono text-xs text-ink-soft">
                  {shortSha(r.sha256)}
                </code>
              </dd>
            </div>
          </dl>

          {inFlight ? (
            <div className="mt-3 max-w-sm">
              <ProgressBar
                size="sm"
                label={`Revision ${r.number} processing`}
                value={
                  r.status === "extracting" && pagesKnown
                    ? (100 * Math.min(r.progress, r.pageCount!)) / r.pageCount!
                    : r.status === "queued"
                      ? 0
                      : undefined
                }
              />
            </div>
          ) : null}

          {r.status === "failed" && r.error ? (
            <p data-testid="revision-error" role="alert" className="mt-2 text-sm leading-relaxed text-rose-700">
              {r.error}
            </p>
          ) : null}
          {r.warning ? (
            <p data-testid="revision-warning" className="mt-2 flex gap-1.5 text-sm leading-relaxed text-amber-800">
              <span aria-hidden="true">⚠</span>
              <span>{r.warning}</span>
            </p>
          ) : null}
          {toggleError ? (
            <p role="alert" className="mt-2 text-sm text-rose-700">
              {toggleError}
            </p>
          ) : null}
        </div>

        <button
          type="button"
          data-testid="correction-toggle"
          aria-pressed={r.isCorrection}
          disabled={pending}
          onClick={() => onToggleCorrection(r)}
          className="-mx-2 shrink-0 self-start rounded-md px-2 py-1 text-[13px] font-medium text-muted transition hover:bg-canvas hover:text-ink disabled:cursor-wait disabled:opacity-60 sm:mx-0"
        >
          {r.isCorrection ? "Unmark correction" : "Mark as correction"}
        </button>
      </div>
    </li>
  );
}
