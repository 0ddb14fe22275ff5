"use client";

type Tone = "accent" | "success" | "danger" | "muted";

const fill: Record<Tone, string> = {
  accent: "bg-accent-500",
  success: "bg-emerald-500",
  danger: "bg-rose-500",
  muted: "bg-stone-300",
};

interface ProgressBarProps {
  /** 0..100; omit for an indeterminate bar. */
  value?: number;
  label: string;
  tone?: Tone;
  size?: "sm" | "md";
  testId?: string;
}

/** A thin, accessible progress bar; indeterminate when no value is known. */
export function ProgressBar({ value, label, tone = "accent", size = "md", testId }: ProgressBarProps) {
  const clamped = value === undefined ? undefined : Math.max(0, Math.min(100, value));
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped === undefined ? undefined : Math.round(clamped)}
      data-testid={testId}
      className={`relative w-full overflow-hidden rounded-full bg-stone-200/70 ${size === "sm" ? "h-1" : "h-1.5"}`}
    >
      {clamped === undefined ? (
        <div className={`animate-progress-slide absolute inset-y-0 left-0 w-2/5 rounded-full ${fill[tone]} opacity-80`} />
      ) : (
        <div
          className={`h-full rounded-full ${fill[tone]} transition-[width] duration-500 ease-out`}
          style={{ width: `${clamped}%` }}
        />
      )}
    </div>
  );
}
