import { type IndexSourceMarket, type IndexSourceRow, SetIndexMappingBody } from '@bourse/shared/api';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Drawer,
  Input,
  Radio,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormField, SchemaFormView, useSchemaForm } from '../../../shared/form.tsx';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { useSession } from '../../../shared/session.tsx';
import { fetchIndexSources } from '../api/fetch-index-sources.ts';
import { setIndexMapping } from '../api/set-index-mapping.ts';

const PANEL_KEY = ['index', 'sources'];

const STATE_COLORS: Record<IndexSourceRow['state'], string> = {
  up: 'green',
  connecting: 'gold',
  down: 'red',
};

/**
 * The index's sources per market, as the feed's node sees them: each venue's state, last price
 * and its age, transport, and whether the latest tick used it or why it dropped it. The owner
 * sets the symbol a venue is followed under (audited by the server); prices are never set here.
 */
export function IndexSourcesPage() {
  const { t } = useTranslation();
  const canManage = useSession().can('config.manage');
  const panel = useQuery({
    queryKey: PANEL_KEY,
    queryFn: fetchIndexSources,
    // why: states and ages move every second; a few seconds' lag is what an operator can read.
    refetchInterval: 3000,
  });
  const [symbol, setSymbol] = useState<string>();
  const [editing, setEditing] = useState<{ market: IndexSourceMarket; row: IndexSourceRow } | null>(null);
  const data = panel.data;
  const market = data?.markets.find((m) => m.symbol === symbol) ?? data?.markets[0];
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('indexSources.title')}
      </Typography.Title>
      {panel.isError && <Alert type="error" title={panel.error.message} />}
      {data?.feed === 'simulated' && <Alert type="warning" title={t('indexSources.simulated')} />}
      {data && (
        <Descriptions size="small" column={4} bordered>
          <Descriptions.Item label={t('indexSources.venues')}>
            {data.venues.join(', ') || '—'}
          </Descriptions.Item>
          <Descriptions.Item label={t('indexSources.minSources')}>{data.minSources}</Descriptions.Item>
          <Descriptions.Item label={t('indexSources.outlier')}>
            {t('indexSources.bps', { bps: data.outlierBps })}
          </Descriptions.Item>
          <Descriptions.Item label={t('indexSources.staleAfter')}>
            {t('indexSources.seconds', { seconds: data.sourceStaleMs / 1000 })}
          </Descriptions.Item>
        </Descriptions>
      )}
      <Space>
        <Typography.Text id="index-market-label">{t('indexSources.market')}</Typography.Text>
        <Select
          aria-labelledby="index-market-label"
          style={{ width: 160 }}
          value={market?.symbol}
          options={(data?.markets ?? []).map((m) => ({ value: m.symbol, label: m.symbol }))}
          onChange={setSymbol}
        />
        {market && <IndexSummary market={market} />}
      </Space>
      <Table<IndexSourceRow>
        rowKey="venue"
        loading={panel.isLoading}
        dataSource={market?.sources ?? []}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: t('indexSources.none') }}
        columns={[
          { title: t('indexSources.venue'), dataIndex: 'venue' },
          {
            title: t('indexSources.state'),
            render: (_, row) => (
              <Tag color={STATE_COLORS[row.state]}>{t(`indexSources.states.${row.state}`)}</Tag>
            ),
          },
          { title: t('indexSources.price'), render: (_, row) => (row.price ? trimDecimal(row.price) : '—') },
          {
            title: t('indexSources.age'),
            render: (_, row) =>
              row.ageMs === null
                ? '—'
                : t('indexSources.seconds', { seconds: (row.ageMs / 1000).toFixed(1) }),
          },
          {
            title: t('indexSources.transport'),
            render: (_, row) => (row.transport ? row.transport.toUpperCase() : '—'),
          },
          {
            title: t('indexSources.latestTick'),
            render: (_, row) =>
              row.used === null ? (
                '—'
              ) : row.used ? (
                <Tag color="green">{t('indexSources.used')}</Tag>
              ) : (
                <Tag color="orange">{t(`indexSources.reasons.${row.reason ?? 'down'}`)}</Tag>
              ),
          },
          {
            title: t('indexSources.venueSymbol'),
            render: (_, row) => (
              <Space size={4}>
                <Typography.Text code>{row.venueSymbol ?? t('indexSources.off')}</Typography.Text>
                <Typography.Text type="secondary">{t(`indexSources.origins.${row.origin}`)}</Typography.Text>
              </Space>
            ),
          },
          {
            title: t('indexSources.error'),
            render: (_, row) =>
              row.error ? (
                <Typography.Text type="danger" ellipsis={{ tooltip: row.error }} style={{ maxWidth: 220 }}>
                  {row.error}
                </Typography.Text>
              ) : (
                '—'
              ),
          },
          {
            title: '',
            render: (_, row) =>
              canManage &&
              market && (
                <Button size="small" onClick={() => setEditing({ market, row })}>
                  {t('indexSources.editMapping')}
                </Button>
              ),
          },
        ]}
      />
      {editing && <MappingForm market={editing.market} row={editing.row} onClose={() => setEditing(null)} />}
    </Space>
  );
}

function IndexSummary({ market }: { market: IndexSourceMarket }) {
  const { t } = useTranslation();
  if (!market.index) return <Tag color="red">{t('indexSources.noIndex')}</Tag>;
  return (
    <Space size={8}>
      <Typography.Text strong>{trimDecimal(market.index.price)}</Typography.Text>
      <Typography.Text type="secondary">{market.index.source}</Typography.Text>
      <Typography.Text type="secondary">{formatTime(market.index.at)}</Typography.Text>
      {market.stale ? (
        <Tag color="red">{t('indexSources.stale')}</Tag>
      ) : (
        <Tag color="green">{t('indexSources.fresh')}</Tag>
      )}
    </Space>
  );
}

function MappingForm({
  market,
  row,
  onClose,
}: {
  market: IndexSourceMarket;
  row: IndexSourceRow;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const form = useSchemaForm(SetIndexMappingBody, {
    defaultValues: {
      venue: row.venue,
      use: row.origin === 'default' ? 'default' : row.venueSymbol === null ? 'off' : 'symbol',
      venueSymbol: row.venueSymbol ?? `${market.base}/${market.quote}`,
      reason: '',
    },
  });
  const { control } = form;
  const use = form.watch('use');
  const save = useMutation({
    mutationFn: (body: z.output<typeof SetIndexMappingBody>) => setIndexMapping(market.symbol, body),
    onSuccess: (data) => {
      client.setQueryData(PANEL_KEY, data);
      message.success(t('common.saved'));
      onClose();
    },
    onError: (error) => message.error(error.message),
  });
  // why: the venue symbol is sent only when it is the one used; a hidden field keeps its text.
  const submit = form.handleSubmit(({ venueSymbol, ...body }) =>
    save.mutate({ ...body, venueSymbol: body.use === 'symbol' ? venueSymbol : undefined }),
  );
  return (
    <Drawer
      open
      size={440}
      title={t('indexSources.mappingTitle', { venue: row.venue, symbol: market.symbol })}
      onClose={onClose}
      footer={
        <Space>
          <Button type="primary" loading={save.isPending} onClick={() => void submit()}>
            {t('common.submit')}
          </Button>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
        </Space>
      }
    >
      <SchemaFormView onSubmit={submit}>
        <FormField control={control} name="use">
          <Radio.Group
            options={[
              {
                value: 'default',
                label: t('indexSources.use.default', { symbol: `${market.base}/${market.quote}` }),
              },
              { value: 'symbol', label: t('indexSources.use.symbol') },
              { value: 'off', label: t('indexSources.use.off') },
            ]}
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
          />
        </FormField>
        {use === 'symbol' && (
          <FormField control={control} name="venueSymbol">
            <Input aria-label={t('indexSources.venueSymbol')} placeholder="BTC/USDT" />
          </FormField>
        )}
        <Typography.Paragraph type="secondary">{t('indexSources.usdNote')}</Typography.Paragraph>
        <FormField control={control} name="reason">
          <Input.TextArea
            aria-label={t('indexSources.reason')}
            placeholder={t('indexSources.reason')}
            maxLength={500}
          />
        </FormField>
      </SchemaFormView>
    </Drawer>
  );
}
