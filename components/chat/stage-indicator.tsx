import type { StageProgress } from "./types";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the pipeline is doing, in the student's words. */
export function stageText(progress: StageProgress | null): string {
  if (!progress) return "Sending your question…";
  switch (progress.stage) {
    case "rewriting":
      return "Reading your follow-up in context…";
    case "searching":
      if (progress.retrieved) {
        return progress.retrieved.passed > 0 ? `Found ${plural(progress.retrieved.passed, "relevant passage")}…` : "Looking for supporting passages…";
      }
      return "Searching your notes…";
    case "reading":
    case "generating":
      return progress.passages ? `Reading ${plural(progress.passages, "passage")}…` : "Reading the passages…";
    case "checking":
      return "Checking citations…";
    case "busy":
      return `Busy: many students are asking right now. Retrying in ${progress.retryIn ?? 1} s…`;
  }
}

/** A calm, live-announced progress line shown while an answer is on its way. */
export function StageIndicator({ progress }: { progress: StageProgress | null }) {
  return (
    <div data-testid="stage-indicator" data-stage={progress?.stage ?? "sending"} role="status" aria-live="polite" className="flex items-center gap-2.5 text-sm text-muted">
      <span aria-hidden="true" className="relative flex size-2.5">
        <span className="absolute inline-flex size-full animate-ping rounded-full bg-accent-500/50 motion-reduce:animate-none" />
        <span className="relative inline-flex size-2.5 rounded-full bg-accent-500" />
      </span>
      <span>{stageText(progress)}</span>
    </div>
  );
}
