import type { PublicTrade } from '@bourse/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime, trimDecimal } from '../../../shared/format.ts';
import { fetchBook } from '../api/fetch-book.ts';
import { listTrades } from '../api/list-trades.ts';
import { marketsQuery } from './markets.tsx';

/** How often the book and trades are read again while the tab is open. */
const REFRESH_MS = 2000;
const LEVELS = 20;

type Level = { price: string; qty: string };

/** A market's book (best levels each side) and its latest trades, read again every two seconds. */
export function BookTab() {
  const { t } = useTranslation();
  const markets = useQuery(marketsQuery);
  const [chosen, setChosen] = useState<string | undefined>();
  const symbol = chosen ?? markets.data?.[0]?.symbol;
  const market = markets.data?.find((m) => m.symbol === symbol);
  const book = useQuery({
    queryKey: ['spot', 'book', symbol],
    queryFn: () => fetchBook(symbol ?? '', LEVELS),
    enabled: symbol !== undefined,
    refetchInterval: REFRESH_MS,
  });
  const trades = useQuery({
    queryKey: ['spot', 'trades', symbol],
    queryFn: () => listTrades(symbol ?? '', 50),
    enabled: symbol !== undefined,
    refetchInterval: REFRESH_MS,
  });
  const levels = (rows: [string, string][] | undefined): Level[] =>
    (rows ?? []).map(([price, qty]) => ({ price: trimDecimal(price), qty: trimDecimal(qty) }));
  const levelColumns = [
    { title: t('spot.price'), dataIndex: 'price' },
    { title: t('spot.qty'), dataIndex: 'qty' },
  ];
  const problem = book.error ?? trades.error;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space>
        <Typography.Text>{t('spot.market')}</Typography.Text>
        <Select
          aria-label={t('spot.market')}
          style={{ width: 160 }}
          value={symbol}
          onChange={setChosen}
          options={(markets.data ?? []).map((m) => ({ value: m.symbol, label: m.symbol }))}
        />
        {market && (
          <Tag color={market.status === 'open' ? 'green' : 'red'}>{t(`spot.statuses.${market.status}`)}</Tag>
        )}
        <Typography.Text type="secondary">{t('spot.refreshNote')}</Typography.Text>
      </Space>
      {problem && <Alert type="error" title={problem.message} />}
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Card size="small" title={t('spot.asks')}>
            <Table<Level>
              size="small"
              rowKey="price"
              pagination={false}
              // why: the best ask is the lowest; it sits next to the best bid, at the bottom.
              dataSource={levels(book.data?.asks).reverse()}
              columns={levelColumns.map((c) => ({
                ...c,
                render: (v: string) => <Typography.Text type="danger">{v}</Typography.Text>,
              }))}
              locale={{ emptyText: t('common.empty') }}
            />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card size="small" title={t('spot.bids')}>
            <Table<Level>
              size="small"
              rowKey="price"
              pagination={false}
              dataSource={levels(book.data?.bids)}
              columns={levelColumns.map((c) => ({
                ...c,
                render: (v: string) => <Typography.Text type="success">{v}</Typography.Text>,
              }))}
              locale={{ emptyText: t('common.empty') }}
            />
          </Card>
        </Col>
        <Col xs={24} md={8}>
          <Card size="small" title={t('spot.trades')}>
            <Table<PublicTrade>
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={trades.data ?? []}
              locale={{ emptyText: t('common.empty') }}
              columns={[
                {
                  title: t('spot.price'),
                  render: (_, row) => (
                    <Typography.Text type={row.side === 'buy' ? 'success' : 'danger'}>
                      {trimDecimal(row.price)}
                    </Typography.Text>
                  ),
                },
                { title: t('spot.qty'), render: (_, row) => trimDecimal(row.qty) },
                { title: t('spot.time'), render: (_, row) => formatTime(row.at) },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
