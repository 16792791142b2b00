import Skeleton from 'antd-mobile/es/components/skeleton';

export function MarketListSkeleton({ rows = 8 }: { rows?: number }) {
  return (
    <ul className="market-list" aria-busy="true">
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className="market-row">
          <Skeleton animated className="skeleton-pair" />
          <Skeleton animated className="skeleton-price" />
          <Skeleton animated className="skeleton-chip" />
        </li>
      ))}
    </ul>
  );
}
