import Skeleton from 'antd-mobile/es/components/skeleton';

/** Grey rows in an `.item-list` while a list loads. */
export function ListSkeleton({ rows = 5 }: { rows?: number }) {
  return (
    <ul className="item-list" aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className="item-row">
          <Skeleton.Paragraph lineCount={2} animated className="item-row-skeleton" />
        </li>
      ))}
    </ul>
  );
}
