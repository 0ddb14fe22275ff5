"use client";

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { DocumentCard } from "./document-card";
import { Dropzone } from "./dropzone";
import { formatBytes, pluralize } from "./format";
import { sendUpload } from "./upload-request";
import { describeUpload, isSettled, UploadRow, type UploadItem, type UploadState } from "./upload-row";
import { isInFlight, type DocumentView, type RevisionView } from "./types";

interface DocumentsManagerProps {
  courseSlug: string;
  initialDocuments: DocumentView[];
  maxUploadBytes: number;
}

/** Files sent at the same time; the rest wait their turn. */
const PARALLEL_UPLOADS = 2;
const POLL_MS = 1000;

interface Job {
  key: string;
  file: File;
  documentId?: string;
}

/**
 * The documents page's live part: uploads with their progress, and the document list, polled
 * every second while anything is still being processed.
 */
export function DocumentsManager({ courseSlug, initialDocuments, maxUploadBytes }: DocumentsManagerProps) {
  const api = `/api/courses/${encodeURIComponent(courseSlug)}`;
  const [documents, setDocuments] = useState<DocumentView[]>(initialDocuments);
  const [uploads, setUploads] = useState<UploadItem[]>([]);
  const [refreshError, setRefreshError] = useState<string | null>(null);
  const [pendingToggles, setPendingToggles] = useState<ReadonlySet<string>>(new Set());
  const [toggleErrors, setToggleErrors] = useState<Record<string, string>>({});

  // ─── The document list ────────────────────────────────────────────────────────────────────
  const requestSeq = useRef(0);
  const refresh = useCallback(async () => {
    const seq = ++requestSeq.current;
    try {
      const res = await fetch(`${api}/documents`, { cache: "no-store", headers: { Accept: "application/json" } });
      if (res.status === 401) {
        if (seq === requestSeq.current) setRefreshError("You have been signed out. Sign in again to see the latest status.");
        return;
      }
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = (await res.json()) as { documents: DocumentView[] };
      if (seq !== requestSeq.current) return; // a newer request already answered
      setDocuments(body.documents);
      setRefreshError(null);
    } catch {
      if (seq === requestSeq.current) setRefreshError("The list could not be refreshed. Retrying…");
    }
  }, [api]);

  const revisionsById = useMemo(() => {
    const map = new Map<string, RevisionView>();
    for (const d of documents) for (const r of d.revisions) map.set(r.id, r);
    return map;
  }, [documents]);

  const rows = useMemo(
    () =>
      uploads.map((item) => ({
        item,
        view: describeUpload(item, item.state.phase === "accepted" ? revisionsById.get(item.state.revisionId) : undefined),
      })),
    [uploads, revisionsById],
  );

  const busy =
    documents.some((d) => d.revisions.some((r) => isInFlight(r.status))) ||
    rows.some(({ item, view }) => item.state.phase === "accepted" && !isSettled(view));

  useEffect(() => {
    if (!busy) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      await refresh();
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    timer = setTimeout(tick, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [busy, refresh]);

  // ─── Uploads ──────────────────────────────────────────────────────────────────────────────
  const setUploadState = useCallback((key: string, state: UploadState) => {
    setUploads((list) => list.map((u) => (u.key === key ? { ...u, state } : u)));
  }, []);

  const queue = useRef<Job[]>([]);
  const running = useRef(0);
  const nextKey = useRef(0);

  const runJob = useCallback(
    async (job: Job) => {
      setUploadState(job.key, { phase: "uploading", fraction: 0 });
      let lastPercent = -1;
      const outcome = await sendUpload({
        url: `${api}/documents`,
        file: job.file,
        documentId: job.documentId,
        onProgress: (fraction) => {
          const percent = Math.floor(fraction * 100);
          if (percent === lastPercent) return;
          lastPercent = percent;
          setUploadState(job.key, { phase: "uploading", fraction });
        },
      });
      if (outcome.kind === "created") {
        setUploadState(job.key, {
          phase: "accepted",
          revisionId: outcome.revisionId,
          revisionNumber: outcome.revision,
          documentTitle: outcome.documentTitle,
        });
        await refresh();
      } else if (outcome.kind === "unchanged") {
        setUploadState(job.key, { phase: "unchanged", message: outcome.message, documentTitle: outcome.documentTitle });
      } else {
        setUploadState(job.key, { phase: "rejected", message: outcome.message });
      }
    },
    [api, refresh, setUploadState],
  );

  const pump = useCallback(() => {
    while (running.current < PARALLEL_UPLOADS && queue.current.length > 0) {
      const job = queue.current.shift()!;
      running.current += 1;
      void runJob(job).finally(() => {
        running.current -= 1;
        pump();
      });
    }
  }, [runJob]);

  const enqueue = useCallback(
    (files: File[], target?: { documentId: string; title: string }) => {
      const added: UploadItem[] = [];
      for (const file of files) {
        const key = `u${++nextKey.current}`;
        const tooLarge = file.size > maxUploadBytes;
        added.push({
          key,
          fileName: file.name,
          size: file.size,
          target,
          state: tooLarge
            ? { phase: "rejected", message: `“${file.name}” is ${formatBytes(file.size)}; the limit is ${formatBytes(maxUploadBytes)}.` }
            : { phase: "waiting" },
        });
        if (!tooLarge) queue.current.push({ key, file, documentId: target?.documentId });
      }
      setUploads((list) => [...list, ...added]);
      pump();
    },
    [maxUploadBytes, pump],
  );

  const clearFinished = () => {
    const done = new Set(rows.filter(({ view }) => isSettled(view)).map(({ item }) => item.key));
    setUploads((list) => list.filter((u) => !done.has(u.key)));
  };

  // A file dropped outside the zone would otherwise make the browser navigate away to it.
  useEffect(() => {
    const guard = (e: DragEvent) => {
      if (Array.from(e.dataTransfer?.types ?? []).includes("Files")) e.preventDefault();
    };
    window.addEventListener("dragover", guard);
    window.addEventListener("drop", guard);
    return () => {
      window.removeEventListener("dragover", guard);
      window.removeEventListener("drop", guard);
    };
  }, []);

  // ─── Corrections ──────────────────────────────────────────────────────────────────────────
  const toggleCorrection = useCallback(
    async (revision: RevisionView) => {
      const next = !revision.isCorrection;
      setPendingToggles((s) => new Set(s).add(revision.id));
      setToggleErrors(({ [revision.id]: _drop, ...rest }) => rest);
      try {
        const res = await fetch(`${api}/revisions/${encodeURIComponent(revision.id)}`, {
          method: "PATCH",
          headers: { "Content-Type": "application/json", Accept: "application/json" },
          body: JSON.stringify({ isCorrection: next }),
        });
        if (!res.ok) {
          const body = (await res.json().catch(() => null)) as { message?: string } | null;
          throw new Error(body?.message ?? `The change was not saved (HTTP ${res.status}).`);
        }
        setDocuments((docs) =>
          docs.map((d) => ({ ...d, revisions: d.revisions.map((r) => (r.id === revision.id ? { ...r, isCorrection: next } : r)) })),
        );
      } catch (e) {
        const message = e instanceof TypeError ? "The server could not be reached; the change was not saved." : (e as Error).message;
        setToggleErrors((m) => ({ ...m, [revision.id]: message }));
      } finally {
        setPendingToggles((s) => {
          const copy = new Set(s);
          copy.delete(revision.id);
          return copy;
        });
      }
    },
    [api],
  );

  // ─── Render ───────────────────────────────────────────────────────────────────────────────
  const settledCount = rows.filter(({ view }) => isSettled(view)).length;
  const searchable = documents.filter((d) => d.currentRevisionId).length;

  return (
    <div className="space-y-12">
      <section aria-labelledby="upload-heading">
        <h2 id="upload-heading" className="sr-only">
          Upload PDFs
        </h2>
        <Dropzone maxUploadBytes={maxUploadBytes} onFiles={(files) => enqueue(files)} />

        {rows.length > 0 ? (
          <div className="mt-6">
            <div className="mb-3 flex items-center justify-between gap-4">
              <h3 className="text-sm font-semibold text-ink">Uploads</h3>
              {settledCount > 0 ? (
                <button
                  type="button"
                  onClick={clearFinished}
                  className="rounded-md px-2 py-1 text-[13px] font-medium text-muted transition hover:bg-surface hover:text-ink"
                >
                  Clear finished
                </button>
              ) : null}
            </div>
            <ul aria-label="Uploads" data-testid="upload-list" className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-surface">
              {rows.map(({ item, view }) => (
                <UploadRow
                  key={item.key}
                  item={item}
                  view={view}
                  onDismiss={isSettled(view) ? () => setUploads((list) => list.filter((u) => u.key !== item.key)) : undefined}
                />
              ))}
            </ul>
          </div>
        ) : null}
      </section>

      <section aria-labelledby="documents-heading">
        <div className="mb-4 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
          <h2 id="documents-heading" className="text-lg font-semibold tracking-tight text-ink">
            Course documents
          </h2>
          {documents.length > 0 ? (
            <p className="text-[13px] text-muted">
              {pluralize(documents.length, "document")} · {searchable} searchable
            </p>
          ) : null}
        </div>

        {refreshError ? (
          <p role="status" className="mb-4 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {refreshError}
          </p>
        ) : null}

        {documents.length === 0 ? (
          <div data-testid="documents-empty" className="rounded-2xl border border-line bg-surface px-6 py-12 text-center">
            <p className="text-base font-medium text-ink">No documents yet</p>
            <p className="mx-auto mt-1.5 max-w-sm text-sm leading-relaxed text-muted">
              Upload lecture notes, slides or a syllabus as PDF. Students&rsquo; questions are answered from these files only.
            </p>
          </div>
        ) : (
          <ul aria-label="Course documents" data-testid="document-list" className="space-y-4">
            {documents.map((d) => (
              <DocumentCard
                key={d.id}
                document={d}
                pendingToggles={pendingToggles}
                toggleErrors={toggleErrors}
                onToggleCorrection={toggleCorrection}
                onUploadRevision={(doc, file) => enqueue([file], { documentId: doc.id, title: doc.title })}
                onDelete={async (doc) => {
                  const res = await fetch(`${api}/documents/${encodeURIComponent(doc.id)}`, { method: "DELETE" }).catch(() => null);
                  if (!res || !res.ok) {
                    const body = (await res?.json().catch(() => null)) as { message?: string } | null;
                    return body?.message ?? "The document could not be deleted. Try again.";
                  }
                  await refresh();
                  return null;
                }}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
