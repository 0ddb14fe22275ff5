"use client";

import { useRef, useState, type DragEvent } from "react";
import { formatBytes } from "./format";

interface DropzoneProps {
  maxUploadBytes: number;
  onFiles: (files: File[]) => void;
}

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes("Files");
}

/** Drag PDFs onto the zone or pick them with the button; several at once. */
export function Dropzone({ maxUploadBytes, onFiles }: DropzoneProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const depth = useRef(0);
  const [dragging, setDragging] = useState(false);

  const take = (list: FileList | null | undefined) => {
    const files = Array.from(list ?? []);
    if (files.length > 0) onFiles(files);
  };

  return (
    <div
      data-testid="dropzone"
      data-dragging={dragging ? "true" : "false"}
      role="group"
      aria-labelledby="dropzone-title"
      aria-describedby="dropzone-hint"
      onDragEnter={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        depth.current += 1;
        setDragging(true);
      }}
      onDragOver={(e) => {
        if (!hasFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        depth.current = 0;
        setDragging(false);
        take(e.dataTransfer?.files);
      }}
      className={`relative flex flex-col items-center justify-center gap-4 rounded-2xl border-2 border-dashed px-6 py-9 text-center transition-colors sm:py-10 ${
        dragging ? "border-accent-500 bg-accent-50" : "border-line-strong bg-surface hover:border-accent-200"
      }`}
    >
      <span
        aria-hidden="true"
        className={`grid size-12 place-items-center rounded-full transition-colors ${dragging ? "bg-accent-100 text-accent-700" : "bg-canvas text-accent-600"}`}
      >
        <svg viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round">
          <path d="M12 16V4m0 0L7.5 8.5M12 4l4.5 4.5" />
          <path d="M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3" />
        </svg>
      </span>
      <div>
        <p id="dropzone-title" className="text-base font-medium text-ink">
          {dragging ? (
            "Drop to upload"
          ) : (
            <>
              <span className="hidden sm:inline">Drag PDFs here</span>
              <span className="sm:hidden">Add course PDFs</span>
            </>
          )}
        </p>
        <p id="dropzone-hint" className="mt-1 text-sm text-muted">
          PDFs with selectable text, up to {formatBytes(maxUploadBytes)} each.
          <span className="mt-0.5 block text-[13px] text-muted/80">A file with the same name as an existing document becomes its next revision.</span>
        </p>
      </div>
      <input
        ref={inputRef}
        type="file"
        multiple
        accept="application/pdf,.pdf"
        className="sr-only"
        tabIndex={-1}
        data-testid="upload-input"
        aria-label="Choose PDF files to upload"
        onChange={(e) => {
          take(e.currentTarget.files);
          e.currentTarget.value = "";
        }}
      />
      <button
        type="button"
        data-testid="choose-files"
        onClick={() => inputRef.current?.click()}
        className="rounded-lg bg-accent-600 px-4 py-2 text-sm font-medium text-white shadow-sm transition hover:bg-accent-700"
      >
        Choose PDFs
      </button>
    </div>
  );
}
