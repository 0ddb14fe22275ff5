"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useJsonPost } from "@/components/ui/use-json-post";

const input =
  "mt-1 block w-full rounded-lg border border-line-strong bg-surface px-3 py-2 text-[15px] text-ink outline-none transition focus:border-accent-500 focus:ring-2 focus:ring-accent-100";
const primary = "rounded-lg bg-accent-600 px-4 py-2 text-sm font-medium text-white shadow-sm transition hover:bg-accent-700 disabled:opacity-60";

/** A new golden set: a name, then its page to add questions. */
export function NewSetForm({ courseSlug }: { courseSlug: string }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const { error, pending, post } = useJsonPost<{ set: { id: string } }>(({ set }) => router.push(`/courses/${encodeURIComponent(courseSlug)}/eval/sets/${encodeURIComponent(set.id)}`));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void post(`/api/courses/${encodeURIComponent(courseSlug)}/golden-sets`, { name });
      }}
      className="flex flex-wrap items-end gap-3"
      data-testid="new-set-form"
    >
      <label className="block min-w-48 flex-1">
        <span className="text-sm text-ink-soft">New set</span>
        <input required maxLength={60} value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. week 6 review" className={input} />
      </label>
      <button type="submit" disabled={pending || !name.trim()} className={primary}>
        Create set
      </button>
      {error ? (
        <p role="alert" className="w-full text-sm text-rose-700">
          {error}
        </p>
      ) : null}
    </form>
  );
}

type Mode = "single" | "ab" | "chunk_sizes";

/** Parses a configuration textarea: a JSON object of settings, or a message saying what is wrong. */
function parseConfig(text: string, name: string): { ok: true; value: Record<string, unknown> } | { ok: false; message: string } {
  try {
    const value = JSON.parse(text || "{}");
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { ok: false, message: `Configuration ${name} must be a JSON object of settings.` };
    return { ok: true, value };
  } catch (e) {
    return { ok: false, message: `Configuration ${name} is not valid JSON: ${(e as Error).message}` };
  }
}

/**
 * Starts an evaluation: one configuration, two side by side (A/B), or the chunk-size experiment.
 * A configuration is JSON of the pipeline's settings; the default one is shown to start from.
 */
export function RunForm({ courseSlug, sets, defaults, chunkSizes }: { courseSlug: string; sets: Array<{ id: string; name: string; questions: number }>; defaults: Record<string, number>; chunkSizes: readonly number[] }) {
  const router = useRouter();
  const pretty = JSON.stringify(defaults, null, 2);
  const [setId, setSetId] = useState(sets[0]?.id ?? "");
  const [mode, setMode] = useState<Mode>("single");
  const [a, setA] = useState(pretty);
  const [b, setB] = useState(pretty);
  const [sizes, setSizes] = useState(chunkSizes.join(", "));
  const [formError, setFormError] = useState<string | null>(null);
  const { error, pending, post } = useJsonPost<{ run: { id: string } }>(({ run }) => router.push(`/courses/${encodeURIComponent(courseSlug)}/eval/runs/${encodeURIComponent(run.id)}`));

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    setFormError(null);
    const configA = parseConfig(a, "A");
    if (!configA.ok) return setFormError(configA.message);
    const body: Record<string, unknown> = { kind: mode, setId, config: configA.value };
    if (mode === "ab") {
      const configB = parseConfig(b, "B");
      if (!configB.ok) return setFormError(configB.message);
      body.vs = configB.value;
    }
    if (mode === "chunk_sizes") body.sizes = sizes.split(",").map((s) => Number(s.trim()));
    void post(`/api/courses/${encodeURIComponent(courseSlug)}/eval-runs`, body);
  }

  if (sets.length === 0) return <p className="text-sm text-muted">Create a golden set first.</p>;
  return (
    <form onSubmit={submit} className="space-y-4" data-testid="run-form">
      <div className="flex flex-wrap gap-4">
        <label className="block">
          <span className="text-sm text-ink-soft">Golden set</span>
          <select value={setId} onChange={(e) => setSetId(e.target.value)} className={input}>
            {sets.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.questions} questions)
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend className="text-sm text-ink-soft">Run</legend>
          <div className="mt-2 flex flex-wrap gap-3 text-sm text-ink">
            {(
              [
                ["single", "One configuration"],
                ["ab", "A/B: two configurations"],
                ["chunk_sizes", "Chunk-size experiment"],
              ] as const
            ).map(([value, label]) => (
              <label key={value} className="flex items-center gap-1.5">
                <input type="radio" name="mode" value={value} checked={mode === value} onChange={() => setMode(value)} className="accent-accent-600" />
                {label}
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      <div className={`grid gap-4 ${mode === "ab" ? "md:grid-cols-2" : ""}`}>
        <label className="block">
          <span className="text-sm text-ink-soft">{mode === "ab" ? "Configuration A" : "Configuration"} (JSON; the course's defaults are shown)</span>
          <textarea rows={8} value={a} onChange={(e) => setA(e.target.value)} spellCheck={false} className={`${input} font-mono text-xs`} />
        </label>
        {mode === "ab" ? (
          <label className="block">
            <span className="text-sm text-ink-soft">Configuration B (JSON)</span>
            <textarea rows={8} value={b} onChange={(e) => setB(e.target.value)} spellCheck={false} className={`${input} font-mono text-xs`} />
          </label>
        ) : null}
      </div>
      {mode === "chunk_sizes" ? (
        <label className="block max-w-md">
          <span className="text-sm text-ink-soft">Chunk sizes (tokens, comma-separated; each re-indexes a scratch copy, never the live course)</span>
          <input value={sizes} onChange={(e) => setSizes(e.target.value)} className={`${input} font-mono`} />
        </label>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending || !setId} className={primary}>
          {pending ? "Starting…" : "Start the run"}
        </button>
        {formError || error ? (
          <p role="alert" className="text-sm text-rose-700">
            {formError ?? error}
          </p>
        ) : null}
      </div>
    </form>
  );
}
