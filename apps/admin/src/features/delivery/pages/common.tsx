import { toAtoms } from '@bourse/shared';
import { Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';

/** A filter field that may be left empty: empty means "any"; the schema checks anything else. */
export function blankAsAbsent<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === '' || value === null ? undefined : value), schema);
}

/**
 * How much of its cap an open amount uses, in basis points of the cap, computed on atoms
 * (exact); null when the cap is zero.
 */
export function usageBasisPoints(open: string, cap: string): bigint | null {
  const capAtoms = toAtoms(cap);
  if (capAtoms <= 0n) return null;
  return (toAtoms(open) * 10_000n) / capAtoms;
}

/** Basis points as a percent with two decimals, truncated: `1234n` → `"12.34%"`. */
export function formatBasisPoints(basisPoints: bigint): string {
  return `${basisPoints / 100n}.${String(basisPoints % 100n).padStart(2, '0')}%`;
}

/** A signed amount, green when the house or user gains, red when it loses. */
export function SignedAmount({ value }: { value: string | null }) {
  if (value === null) return <>—</>;
  const sign = toAtoms(value);
  return (
    <Typography.Text type={sign < 0n ? 'danger' : sign > 0n ? 'success' : undefined}>{value}</Typography.Text>
  );
}

/** Previous and next for the server's pages of 20 (`page`, `hasMore`). */
export function Pager(props: { page: number; hasMore: boolean; onChange: (page: number) => void }) {
  const { t } = useTranslation();
  return (
    <Space>
      <Button disabled={props.page <= 1} onClick={() => props.onChange(props.page - 1)}>
        {t('delivery.previous')}
      </Button>
      <Typography.Text>{t('delivery.page', { page: props.page })}</Typography.Text>
      <Button disabled={!props.hasMore} onClick={() => props.onChange(props.page + 1)}>
        {t('delivery.next')}
      </Button>
    </Space>
  );
}
