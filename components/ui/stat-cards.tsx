/** A row of headline figures, each a label over its value. */
export function StatCards({ stats, testId, className = "sm:grid-cols-3" }: { stats: Array<[label: string, value: string]>; testId: string; className?: string }) {
  return (
    <div className={`mt-8 grid gap-4 ${className}`} data-testid={testId}>
      {stats.map(([label, value]) => (
        <div key={label} className="rounded-2xl border border-line bg-surface p-5">
          <p className="text-sm text-muted">{label}</p>
          <p className="mt-1 text-2xl font-semibold tracking-tight text-ink">{value}</p>
        </div>
      ))}
    </div>
  );
}
