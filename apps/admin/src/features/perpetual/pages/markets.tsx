import type { AdminPerpMarket } from '@bourse/shared/api';
import { Alert, Button, Descriptions, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/format.ts';
import { useMarkets } from '../api/list-markets.ts';
import { decimalText, numberColumn, ratioPercent } from './common.tsx';
import { EditMarketDrawer } from './edit-market-drawer.tsx';
import { FundInsuranceModal } from './fund-insurance-modal.tsx';

type Tier = AdminPerpMarket['tiers'][number];

/**
 * Every perpetual market: its status, live figures (mark, index, fund, open interest, funding)
 * and, expanded, its parameters and margin tiers. With `perp.manage` a market's fees, band, mark
 * clamp and status can be edited and its insurance fund topped up; both are audited with a reason.
 */
export function MarketsTab({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const markets = useMarkets();
  const [editing, setEditing] = useState<AdminPerpMarket | null>(null);
  const [funding, setFunding] = useState<AdminPerpMarket | null>(null);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('perp.liveNote')}</Typography.Text>
      {markets.isError && <Alert type="error" showIcon title={markets.error.message} />}
      <Table<AdminPerpMarket>
        rowKey="symbol"
        size="small"
        loading={markets.isLoading}
        dataSource={markets.data ?? []}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: markets.isError ? t('perp.loadFailed') : t('common.empty') }}
        expandable={{ expandedRowRender: (market) => <MarketDetails market={market} /> }}
        columns={[
          {
            title: t('perp.market'),
            render: (_, row) => (
              <Space size={4} wrap>
                <strong>{row.symbol}</strong>
                {row.simulated && (
                  <Tag color="purple" title={t('perp.simulatedHelp')}>
                    {t('perp.simulated')}
                  </Tag>
                )}
              </Space>
            ),
          },
          {
            title: t('perp.status'),
            render: (_, row) => (
              <Tag color={row.status === 'open' ? 'green' : 'red'}>{t(`perp.statuses.${row.status}`)}</Tag>
            ),
          },
          numberColumn(t('perp.mark'), (row) => decimalText(row.mark)),
          numberColumn(t('perp.index'), (row) => (
            <Space size={4}>
              {row.frozen && (
                <Tag color="red" title={t('perp.frozenHelp')}>
                  {t('perp.frozen')}
                </Tag>
              )}
              {decimalText(row.index)}
            </Space>
          )),
          numberColumn(t('perp.insurance'), (row) => `${decimalText(row.insurance)} ${row.quote}`),
          numberColumn(t('perp.openInterest'), (row) => `${decimalText(row.openInterest)} ${row.base}`),
          numberColumn(t('perp.longsShorts'), (row) => `${row.longs} / ${row.shorts}`),
          numberColumn(t('perp.fundLots'), (row) => `${decimalText(row.fundLots)} ${row.base}`),
          numberColumn(t('perp.predictedFunding'), (row) => (
            <Space orientation="vertical" size={0} align="end">
              <span>{ratioPercent(row.fundingRate)}</span>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('perp.nextFunding', { time: formatTime(row.nextFundingAt) })}
              </Typography.Text>
            </Space>
          )),
          {
            title: t('perp.owner'),
            render: (_, row) =>
              row.owner === null ? (
                <Tag color="orange">{t('perp.noOwner')}</Tag>
              ) : (
                <span style={{ whiteSpace: 'nowrap' }}>{row.owner}</span>
              ),
          },
          ...(canManage
            ? [
                {
                  title: t('perp.actions'),
                  render: (_: unknown, row: AdminPerpMarket) => (
                    <Space>
                      <Button size="small" onClick={() => setEditing(row)}>
                        {t('perp.edit')}
                      </Button>
                      <Button size="small" onClick={() => setFunding(row)}>
                        {t('perp.fundInsurance')}
                      </Button>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && <EditMarketDrawer market={editing} onClose={() => setEditing(null)} />}
      {funding && <FundInsuranceModal market={funding} onClose={() => setFunding(null)} />}
    </Space>
  );
}

/** A market's parameters (the mark clamp among them) and its margin tiers (perpetual.md §1, tiers). */
function MarketDetails({ market }: { market: AdminPerpMarket }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 4 }}
        items={[
          { key: 'tickSize', label: t('perp.tickSize'), children: decimalText(market.tickSize) },
          { key: 'lotSize', label: t('perp.lotSize'), children: decimalText(market.lotSize) },
          { key: 'makerFee', label: t('perp.makerFee'), children: ratioPercent(market.makerFee) },
          { key: 'takerFee', label: t('perp.takerFee'), children: ratioPercent(market.takerFee) },
          { key: 'band', label: t('perp.band'), children: `±${ratioPercent(market.band)}` },
          { key: 'maxLeverage', label: t('perp.maxLeverage'), children: `${market.maxLeverage}x` },
          {
            key: 'fundingInterval',
            label: t('perp.fundingInterval'),
            children: t('perp.hours', { count: market.fundingIntervalHours }),
          },
          { key: 'fundingCap', label: t('perp.fundingCap'), children: `±${ratioPercent(market.fundingCap)}` },
          {
            key: 'markClamp',
            label: <span title={t('perp.markClampHelp')}>{t('perp.markClamp')}</span>,
            children: `±${ratioPercent(market.markClamp)}`,
          },
        ]}
      />
      <Table<Tier>
        rowKey={(tier) => tier.maxNotional ?? 'above'}
        size="small"
        pagination={false}
        dataSource={market.tiers}
        locale={{ emptyText: t('common.empty') }}
        title={() => t('perp.tiers.title')}
        columns={[
          { title: t('perp.tiers.tier'), render: (_, _tier, index) => index + 1 },
          numberColumn(t('perp.tiers.maxNotional', { quote: market.quote }), (tier) =>
            tier.maxNotional === null ? t('perp.tiers.above') : `≤ ${decimalText(tier.maxNotional)}`,
          ),
          numberColumn(t('perp.tiers.maxLeverage'), (tier) => `${tier.maxLeverage}x`),
          numberColumn(t('perp.tiers.mmr'), (tier) => ratioPercent(tier.mmr)),
          numberColumn(t('perp.tiers.cum', { quote: market.quote }), (tier) => decimalText(tier.cum)),
        ]}
      />
    </Space>
  );
}
