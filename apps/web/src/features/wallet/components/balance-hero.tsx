import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { Amount } from '../../../shared/ui/amount.tsx';

/** The big figure at the top of a wallet page: a label, an amount and its unit. */
export function BalanceHero({
  label,
  value,
  unit,
  decimals,
  sub,
  testId,
}: {
  label: string;
  /** Undefined while loading. */
  value: string | undefined;
  unit: string;
  decimals?: number;
  sub?: ReactNode;
  testId?: string;
}) {
  return (
    <section className="wallet-hero" aria-busy={value === undefined}>
      <h2 className="wallet-hero-label">{label}</h2>
      {value === undefined ? (
        <Skeleton.Title animated />
      ) : (
        <p className="wallet-hero-value">
          <Amount value={value} decimals={decimals} testId={testId} />
          <span className="wallet-hero-unit">{unit}</span>
        </p>
      )}
      {sub && <div className="wallet-hero-sub">{sub}</div>}
    </section>
  );
}
