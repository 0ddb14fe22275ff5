"use client";

import { useRouter } from "next/navigation";
import type { FormEvent } from "react";
import { useJsonPost } from "@/components/ui/use-json-post";

type Mode = "join" | "create";

/** Join a course with its code, or create one (and become its instructor). */
export function CourseActions() {
  return (
    <div className="mt-10 grid gap-4 sm:grid-cols-2">
      <ActionForm
        mode="join"
        title="Join a course"
        hint="Your instructor gives you the course's join code."
        label="Join code"
        placeholder="e.g. K7PQ2XMD"
        button="Join"
      />
      <ActionForm mode="create" title="Create a course" hint="You become its instructor and can upload its notes." label="Course title" placeholder="e.g. Operating Systems, Fall term" button="Create" />
    </div>
  );
}

function ActionForm({ mode, title, hint, label, placeholder, button }: { mode: Mode; title: string; hint: string; label: string; placeholder: string; button: string }) {
  const router = useRouter();
  const { error, pending, post } = useJsonPost<{ slug: string }>((data) => {
    router.push(`/courses/${encodeURIComponent(data.slug)}/${mode === "join" ? "chat" : "documents"}`);
    router.refresh();
  });

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const value = String(new FormData(e.currentTarget).get("value") ?? "").trim();
    void post(mode === "join" ? "/api/courses/join" : "/api/courses", mode === "join" ? { code: value } : { title: value });
  }

  return (
    <form onSubmit={submit} className="rounded-2xl border border-line bg-surface p-5" data-testid={`${mode}-course-form`}>
      <h2 className="text-base font-semibold text-ink">{title}</h2>
      <p className="mt-1 text-sm text-muted">{hint}</p>
      <div className="mt-4 flex gap-2">
        <label className="sr-only" htmlFor={`${mode}-value`}>
          {label}
        </label>
        <input
          id={`${mode}-value`}
          name="value"
          required
          minLength={mode === "join" ? 4 : 3}
          maxLength={mode === "join" ? 32 : 120}
          placeholder={placeholder}
          autoComplete="off"
          className={`min-w-0 flex-1 rounded-lg border border-line-strong bg-surface px-3 py-2 text-[15px] text-ink outline-none transition focus:border-accent-500 focus:ring-2 focus:ring-accent-100 ${mode === "join" ? "font-mono uppercase tracking-wider" : ""}`}
        />
        <button
          type="submit"
          disabled={pending}
          className="shrink-0 rounded-lg bg-accent-600 px-4 py-2 text-sm font-medium text-white shadow-sm transition hover:bg-accent-700 disabled:opacity-60"
        >
          {pending ? "…" : button}
        </button>
      </div>
      {error ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </form>
  );
}
