import type { ReactNode } from 'react';

export interface DetailRow {
  label: string;
  value: ReactNode;
  testId?: string;
}

/** Label and value pairs of a record, one per row. */
export function DetailList({ rows }: { rows: readonly DetailRow[] }) {
  return (
    <dl className="detail-list">
      {rows.map((row) => (
        <div key={row.label} className="detail-row">
          <dt className="detail-label">{row.label}</dt>
          <dd className="detail-value" data-testid={row.testId}>
            {row.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
