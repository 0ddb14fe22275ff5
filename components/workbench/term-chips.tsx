/** A group's key terms as small labels; `none` names the group of what shares no term with anything else. */
export function TermChips({ terms, none }: { terms: string[]; none: string }) {
  if (terms.length === 0) return <span className="text-sm font-medium text-muted">{none}</span>;
  return (
    <span className="flex flex-wrap gap-1.5" aria-label={`Topic: ${terms.join(", ")}`}>
      {terms.map((t) => (
        <span key={t} className="rounded-md bg-accent-50 px-2 py-0.5 text-sm font-medium text-accent-800 ring-1 ring-inset ring-accent-100">
          {t}
        </span>
      ))}
    </span>
  );
}
