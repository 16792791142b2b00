import Skeleton from 'antd-mobile/es/components/skeleton';

/** Grey rows while a list loads. */
export function ListSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <ul className="wallet-list" aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className="wallet-row">
          <Skeleton.Paragraph lineCount={2} animated className="wallet-row-skeleton" />
        </li>
      ))}
    </ul>
  );
}
