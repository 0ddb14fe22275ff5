"use client";

import Link from "next/link";
import type { ReactNode } from "react";
import { StudySources } from "./study-sources";

/** A study sub-page: the way back to the decks, its title, its error, and the sources panel its chips open. */
export function StudyFrame({ courseSlug, title, error, width = "max-w-2xl", children }: { courseSlug: string; title: string; error: string | null; width?: string; children: ReactNode }) {
  return (
    <StudySources courseSlug={courseSlug}>
      <main className={`mx-auto ${width} px-4 py-8 sm:px-6 sm:py-12`}>
        <Link href={`/courses/${encodeURIComponent(courseSlug)}/study`} className="text-sm text-accent-700 hover:underline">
          ← All decks
        </Link>
        <h1 className="mt-2 text-2xl font-semibold tracking-tight text-ink">{title}</h1>
        <ErrorNote error={error} />
        {children}
      </main>
    </StudySources>
  );
}

export function ErrorNote({ error, testId }: { error: string | null; testId?: string }) {
  if (!error) return null;
  return (
    <p role="alert" data-testid={testId} className="mt-4 rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 ring-1 ring-inset ring-red-200">
      {error}
    </p>
  );
}
