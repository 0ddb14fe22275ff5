import type { ReactNode } from "react";
import type { ChatMessage, TraceRecord } from "@/lib/rag/pipeline";
import { StatusBadge } from "./status-badge";

/** A titled panel of a trace-like page. */
export function Section({ title, note, children }: { title: string; note?: string; children: ReactNode }) {
  return (
    <section className="rounded-2xl border border-line bg-surface p-5 sm:p-6">
      <h2 className="text-base font-semibold tracking-tight text-ink">{title}</h2>
      {note ? <p className="mt-1 text-sm text-muted">{note}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}

const cell = "px-3 py-2 text-left align-top";
const num = (v: number | null | undefined, digits = 2) => (v === null || v === undefined ? "—" : v.toFixed(digits));

/** A stored trace, stage by stage: what each stage saw and decided. Text is rendered as text, never HTML. */
export function TraceView({ trace }: { trace: TraceRecord }) {
  const s = trace.settings;
  const gateScores = new Map((trace.gate?.scores ?? []).map((c) => [c.chunkId, c.score]));
  const decisions = new Map(trace.packing?.decisions.map((d) => [d.chunkId, d]) ?? []);
  const labels = new Map(trace.packing?.selected.map((p) => [p.chunkId, p.label]) ?? []);
  // A context given to the pipeline (the evidence probe) is packed without a search or a gate.
  const given = trace.retrieval !== null && trace.gate === null && trace.packing !== null;
  return (
    <div className="space-y-6" data-testid="trace-view">
      <div className="rounded-2xl border border-line bg-surface p-5 sm:p-6">
        <p className="text-lg font-medium text-ink">{trace.question}</p>
        <div className="mt-3 flex flex-wrap items-center gap-3 text-sm text-muted">
          {trace.status ? <StatusBadge status={trace.status} /> : null}
          <span>
            {s.generator === "llm" ? `model ${s.model}, temperature ${s.temperature}` : "extractive generator"} · k {s.k} · answer-score floor {s.minScore} · window{" "}
            {s.contextWindow} − reserve {s.outputReserve} − margin {s.safetyMargin} · at most {s.maxPassages} passages
          </span>
        </div>
        {trace.origin ? (
          <p className="mt-3 text-sm text-ink-soft" data-testid="trace-origin">
            {trace.origin === "playground" ? "A playground run" : "An evidence-probe run"} from the instructor’s workbench: no student received this answer.
          </p>
        ) : null}
        {trace.standaloneQuery !== trace.question ? (
          <p className="mt-3 text-sm text-ink-soft">
            Searched as: <span className="font-medium">{trace.standaloneQuery}</span>
          </p>
        ) : null}
        {trace.history.length ? <p className="mt-1 text-sm text-muted">Earlier questions: {trace.history.join(" · ")}</p> : null}
      </div>

      <Section title="Timings" note="Milliseconds per stage.">
        <dl className="grid grid-cols-2 gap-x-6 gap-y-2 text-sm sm:grid-cols-4">
          {Object.entries(trace.timings).map(([k, v]) => (
            <div key={k} className="flex justify-between gap-3 border-b border-line py-1">
              <dt className="text-muted">{k}</dt>
              <dd className="font-mono text-ink">{num(v as number, 1)}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section
        title="Retrieval, gate and packing"
        note={
          trace.retrieval?.error
            ? `The search failed: ${trace.retrieval.error}`
            : `${
                given ? "The context was given, not searched for." : `Search expression: ${trace.retrieval?.matchExpression ?? "(no searchable words)"}${trace.retrieval?.dense ? " · with dense retrieval" : ""}.`
              } ${trace.packing ? `Allowance ${trace.packing.allowance} tokens; the request used ${trace.packing.promptTokens}.` : ""}`
        }
      >
        {trace.retrieval && trace.retrieval.hits.length > 0 ? (
          <div className="-mx-2 overflow-x-auto">
            <table className="w-full min-w-[640px] text-sm">
              <thead className="text-xs uppercase tracking-wide text-muted">
                <tr>
                  <th className={cell}>#</th>
                  <th className={cell}>Passage</th>
                  <th className={cell}>BM25</th>
                  <th className={cell}>Dense</th>
                  <th className={cell}>Fused</th>
                  <th className={cell}>Answer score</th>
                  <th className={cell}>Packing</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {trace.retrieval.hits.map((h) => {
                  const d = decisions.get(h.chunkId);
                  return (
                    <tr key={h.chunkId}>
                      <td className={`${cell} font-mono`}>{h.rank}</td>
                      <td className={cell}>
                        <span className="text-ink">{h.documentTitle}</span>
                        <span className="block text-xs text-muted">
                          revision {h.revision}, PDF page {h.pdfPage}
                        </span>
                      </td>
                      <td className={`${cell} font-mono`}>{num(h.lexicalScore)}</td>
                      <td className={`${cell} font-mono`}>{num(h.denseScore, 3)}</td>
                      <td className={`${cell} font-mono`}>{num(h.fusedScore, 4)}</td>
                      <td className={`${cell} font-mono`}>{num(gateScores.get(h.chunkId))}</td>
                      <td className={cell}>
                        {d ? (
                          <span className={d.decision === "included" ? "font-medium text-accent-700" : "text-muted"}>
                            {d.decision.replace("_", " ")}
                            {labels.get(h.chunkId) ? ` as ${labels.get(h.chunkId)}` : ""}
                            {d.trialTokens !== null ? ` · ${d.trialTokens} tok` : ""}
                          </span>
                        ) : (
                          <span className="text-muted">below the floor</span>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-muted">{given ? "No passages: the request was sent without any." : "No passages were found."}</p>
        )}
      </Section>

      {trace.attempts.map((a) => (
        <Section key={a.attempt} title={`Generation, attempt ${a.attempt}`} note={a.error ? `Failed: ${a.error}` : a.problems.length ? `${a.problems.length} citation problem(s)` : "All citations resolved."}>
          {a.problems.length ? (
            <ul className="mb-4 space-y-1 text-sm text-red-800">
              {a.problems.map((p, i) => (
                <li key={i}>
                  {p.kind.replace(/_/g, " ")} — {p.detail}
                </li>
              ))}
            </ul>
          ) : null}
          <details className="group">
            <summary className="cursor-pointer text-sm font-medium text-accent-700">The exact messages sent</summary>
            <RequestMessages messages={a.messages} className="mt-3" />
          </details>
          {a.raw ? (
            <details className="mt-3">
              <summary className="cursor-pointer text-sm font-medium text-accent-700">The raw output</summary>
              <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap rounded-lg bg-canvas p-3 font-mono text-xs text-ink-soft">{a.raw}</pre>
            </details>
          ) : null}
        </Section>
      ))}

      {trace.claimChecks?.length ? (
        <Section title="Claim by claim" note="A streamed answer's claims as each was checked: published at once, or held (never shown) and why.">
          <div className="overflow-x-auto">
            <table className="w-full min-w-[34rem] text-sm" data-testid="claim-checks">
              <thead>
                <tr className="text-left text-xs text-muted">
                  <th className="py-1.5 pr-3 font-medium">Attempt</th>
                  <th className="py-1.5 pr-3 font-medium">Part · claim</th>
                  <th className="py-1.5 pr-3 text-right font-medium">Checked at</th>
                  <th className="py-1.5 pr-3 text-right font-medium">Check took</th>
                  <th className="py-1.5 font-medium">Outcome</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {trace.claimChecks.map((c, i) => (
                  <tr key={i} data-testid="claim-check" data-published={c.published}>
                    <td className="py-1.5 pr-3 font-mono text-ink-soft">{c.attempt}</td>
                    <td className="py-1.5 pr-3 font-mono text-ink-soft">
                      {c.partIndex + 1} · {c.claimIndex + 1}
                    </td>
                    <td className="py-1.5 pr-3 text-right font-mono text-ink-soft">{Math.round(c.atMs)} ms</td>
                    <td className="py-1.5 pr-3 text-right font-mono text-ink-soft">{c.validateMs.toFixed(2)} ms</td>
                    <td className={`py-1.5 ${c.published ? "text-ink" : "text-red-800"}`}>
                      {c.published ? "published" : `held: ${c.problems.map((p) => `${p.kind.replace(/_/g, " ")} (${p.detail})`).join("; ")}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Section>
      ) : null}

      {trace.partStates.length ? (
        <Section title="Decision" note="The state of each requested part, and the status they add up to.">
          <ul className="space-y-1 text-sm">
            {trace.partStates.map((p, i) => (
              <li key={i} className="flex items-center justify-between gap-4 border-b border-line py-1.5">
                <span className="text-ink">
                  {p.ask}
                  {p.gap ? <span className="block text-xs text-muted">{p.gap.text}</span> : null}
                </span>
                <span className="shrink-0 text-muted">{p.gap ? `${p.state} · ${p.gap.kind.replace("_", " ")}` : p.state}</span>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}
    </div>
  );
}

/** The exact messages of a request, role by role, as text. */
export function RequestMessages({ messages, className = "" }: { messages: ChatMessage[]; className?: string }) {
  return (
    <div className={`space-y-3 ${className}`}>
      {messages.map((m, i) => (
        <div key={i}>
          <p className="text-xs font-semibold uppercase tracking-wide text-muted">{m.role}</p>
          <pre className="mt-1 max-h-96 overflow-auto whitespace-pre-wrap rounded-lg bg-canvas p-3 font-mono text-xs leading-relaxed text-ink-soft">{m.content}</pre>
        </div>
      ))}
    </div>
  );
}
