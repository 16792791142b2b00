import { type HousePnlFilter, type HousePnlLine, HousePnlQuery } from '@bourse/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Descriptions, Space, Table } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime } from '../../../shared/format.ts';
import { fetchHousePnl } from '../api/fetch-house-pnl.ts';
import { SignedAmount } from './common.tsx';

// why: the page picks whole days; the query carries their first and last millisecond.
const PnlFilterFields = HousePnlQuery.omit({ from: true, to: true }).extend({
  range: z.custom<[Dayjs | null, Dayjs | null] | null>().optional(),
});

/** The house's profit and loss over settled contracts, in total and per market. */
export function PnlTab() {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<HousePnlFilter>({});
  const pnl = useQuery({
    queryKey: ['delivery', 'pnl', filter],
    queryFn: () => fetchHousePnl(filter),
  });
  const form = useSchemaForm(PnlFilterFields, { defaultValues: { range: null } });
  const total = pnl.data?.total;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <SchemaFormView
        layout="inline"
        onSubmit={form.handleSubmit(({ range }) =>
          setFilter({ from: range?.[0]?.startOf('day').valueOf(), to: range?.[1]?.endOf('day').valueOf() }),
        )}
      >
        <FormField control={form.control} name="range" label={t('delivery.settledBetween')}>
          <DatePicker.RangePicker allowEmpty={[true, true]} />
        </FormField>
        <Button type="primary" htmlType="submit">
          {t('delivery.filter')}
        </Button>
      </SchemaFormView>
      {pnl.isError && <Alert type="error" title={pnl.error.message} />}
      {total && (
        <Descriptions
          bordered
          size="small"
          title={t('delivery.total')}
          column={4}
          items={[
            {
              label: t('delivery.settledBetween'),
              children:
                pnl.data?.from === null && pnl.data?.to === null
                  ? t('delivery.allTime')
                  : `${formatTime(pnl.data?.from)} – ${formatTime(pnl.data?.to)}`,
            },
            { label: t('delivery.contractCount'), children: total.contracts },
            { label: t('delivery.staked'), children: total.staked },
            { label: t('delivery.pnl'), children: <SignedAmount value={total.pnl} /> },
            { label: t('delivery.results.win'), children: total.wins },
            { label: t('delivery.results.loss'), children: total.losses },
            { label: t('delivery.results.draw'), children: total.draws },
            { label: t('delivery.results.refund'), children: total.refunds },
          ]}
        />
      )}
      <Table<HousePnlLine>
        rowKey="symbol"
        loading={pnl.isLoading}
        dataSource={pnl.data?.bySymbol ?? []}
        pagination={false}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: t('delivery.symbol'), dataIndex: 'symbol' },
          { title: t('delivery.contractCount'), dataIndex: 'contracts' },
          { title: t('delivery.results.win'), dataIndex: 'wins' },
          { title: t('delivery.results.loss'), dataIndex: 'losses' },
          { title: t('delivery.results.draw'), dataIndex: 'draws' },
          { title: t('delivery.results.refund'), dataIndex: 'refunds' },
          { title: t('delivery.staked'), dataIndex: 'staked' },
          { title: t('delivery.pnl'), render: (_, row) => <SignedAmount value={row.pnl} /> },
        ]}
      />
    </Space>
  );
}
