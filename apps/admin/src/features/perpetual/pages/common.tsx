import { toAtoms } from '@bourse/shared';
import type { AdminPerpPageQuery } from '@bourse/shared/api';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Button, Select, Space, Table, Typography } from 'antd';
import type { ColumnType } from 'antd/es/table';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { useSession } from '../../../shared/session.tsx';
import { useMarkets } from '../api/list-markets.ts';

/**
 * A ratio as a percent for reading, computed on the digits (exact, any number of decimals, signed):
 * `"0.0001"` → `"0.01%"`, `"-0.00012346"` → `"-0.012346%"`, `"0.015"` → `"1.5%"`.
 */
export function ratioPercent(ratio: string): string {
  const negative = ratio.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? ratio.slice(1) : ratio).split('.');
  const padded = fraction.padEnd(2, '0');
  const integer = `${whole}${padded.slice(0, 2)}`.replace(/^0+(?=\d)/, '');
  const rest = padded.slice(2).replace(/0+$/, '');
  const text = `${integer}${rest ? `.${rest}` : ''}`;
  return `${negative && /[1-9]/.test(text) ? '-' : ''}${text}%`;
}

/** A decimal from the server as staff read it: no trailing zeros; `—` when there is none. */
export function decimalText(value: string | null): string {
  return value === null ? '—' : trimDecimal(value);
}

/** A signed amount: green above zero, red below, plain at zero. */
export function SignedAmount({ value }: { value: string }) {
  const atoms = toAtoms(value);
  return (
    <Typography.Text type={atoms < 0n ? 'danger' : atoms > 0n ? 'success' : undefined}>
      {trimDecimal(value)}
    </Typography.Text>
  );
}

/** A column of figures: right-aligned, in tabular digits so the places line up. */
export function numberColumn<Row>(title: string, render: (row: Row) => ReactNode): ColumnType<Row> {
  return {
    title,
    align: 'right',
    render: (_, row) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{render(row)}</span>,
  };
}

/** A customer, linked to their page when the staff member may read users. */
export function UserCell({ userId, username }: { userId: string; username: string }) {
  const canReadUsers = useSession().can('users.read');
  const label = `${username} (#${userId})`;
  return canReadUsers ? (
    <Link to={`/users/${encodeURIComponent(userId)}`}>{label}</Link>
  ) : (
    <span>{label}</span>
  );
}

/** Picks one perpetual market, or none for all of them. */
export function SymbolFilter(props: {
  value: string | undefined;
  onChange(symbol: string | undefined): void;
}) {
  const { t } = useTranslation();
  const markets = useMarkets();
  const labelId = useId();
  return (
    <Space>
      <Typography.Text id={labelId}>{t('perp.market')}</Typography.Text>
      <Select
        aria-labelledby={labelId}
        allowClear
        showSearch
        placeholder={t('perp.allMarkets')}
        style={{ width: 180 }}
        loading={markets.isLoading}
        value={props.value}
        options={(markets.data ?? []).map((m) => ({ value: m.symbol, label: m.symbol }))}
        onChange={(symbol: string | undefined) => props.onChange(symbol || undefined)}
      />
    </Space>
  );
}

/** A page of rows as every perpetual history answer carries it. */
interface PageOfRows<Row> {
  items: Row[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * One history of the section: a market filter, the rows of a page with the server's page size
 * and total, and the loading, empty and failed states. `useRows` is the operation's hook.
 */
export function HistoryTab<Row extends { id: string; at: number }>(props: {
  useRows(query: AdminPerpPageQuery): UseQueryResult<PageOfRows<Row>>;
  columns: ColumnType<Row>[];
}) {
  const { t } = useTranslation();
  const { useRows } = props;
  const [symbol, setSymbol] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const query = useRows({ symbol, page });
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <SymbolFilter
        value={symbol}
        onChange={(next) => {
          setSymbol(next);
          setPage(1);
        }}
      />
      {query.isError && (
        <Alert
          type="error"
          showIcon
          title={query.error.message}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {t('perp.retry')}
            </Button>
          }
        />
      )}
      <Table<Row>
        rowKey="id"
        size="small"
        loading={query.isFetching}
        dataSource={query.data?.items ?? []}
        scroll={{ x: true }}
        locale={{ emptyText: query.isError ? t('perp.loadFailed') : t('common.empty') }}
        columns={[{ title: t('perp.time'), render: (_, row) => formatTime(row.at) }, ...props.columns]}
        pagination={{
          current: page,
          pageSize: query.data?.pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: false,
          hideOnSinglePage: true,
          showTotal: (total) => t('perp.total', { count: total }),
          onChange: setPage,
        }}
      />
    </Space>
  );
}
