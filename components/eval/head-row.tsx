/** A table's header row: small muted labels, the columns from `rightFrom` on aligned right (figures). */
export function HeadRow({ labels, rightFrom = Infinity }: { labels: string[]; rightFrom?: number }) {
  return (
    <thead className="text-left text-xs text-muted">
      <tr>
        {labels.map((label, i) => (
          <th key={`${label}:${i}`} className={`px-2 py-2 font-medium ${i >= rightFrom ? "text-right" : ""}`}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
