const styles: Record<string, string> = {
  answered: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  partial: "bg-amber-50 text-amber-800 ring-amber-200",
  insufficient_evidence: "bg-slate-100 text-slate-700 ring-slate-200",
  conflicting_evidence: "bg-violet-50 text-violet-800 ring-violet-200",
  retrieval_error: "bg-red-50 text-red-800 ring-red-200",
  validation_failed: "bg-red-50 text-red-800 ring-red-200",
  generation_error: "bg-red-50 text-red-800 ring-red-200",
  question_too_long: "bg-amber-50 text-amber-800 ring-amber-200",
  cancelled: "bg-slate-100 text-slate-700 ring-slate-200",
};

/** An answer status as a small label, e.g. "insufficient evidence". */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${styles[status] ?? styles.insufficient_evidence}`}>
      {status.replace(/_/g, " ")}
    </span>
  );
}
