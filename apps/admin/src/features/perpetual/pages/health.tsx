import type { AdminPerpHealth } from '@bourse/shared/api';
import { Alert, Button, Card, Col, Row, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/format.ts';
import { useHealth } from '../api/fetch-health.ts';
import { decimalText, numberColumn } from './common.tsx';

type MarketHealth = AdminPerpHealth['markets'][number];
type Invariant = MarketHealth['invariants'][number];

/**
 * The five invariants of perpetual.md §5 for every market, as the server checked them when asked:
 * each figure, what it must equal, and green or red. A red line means the ledger and the
 * positions disagree; nothing here repairs it.
 */
export function HealthTab() {
  const { t } = useTranslation();
  const health = useHealth();
  const failing = (health.data?.markets ?? []).filter((market) => market.invariants.some((i) => !i.ok));
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Space wrap>
        <Button loading={health.isFetching} onClick={() => void health.refetch()}>
          {t('common.refresh')}
        </Button>
        {health.data && (
          <Typography.Text type="secondary">
            {t('perp.health.checkedAt', { time: formatTime(health.data.checkedAt) })}
          </Typography.Text>
        )}
      </Space>
      <Typography.Paragraph type="secondary">{t('perp.health.note')}</Typography.Paragraph>
      {health.isError && <Alert type="error" showIcon title={health.error.message} />}
      {health.data &&
        (failing.length > 0 ? (
          <Alert
            type="error"
            showIcon
            title={t('perp.health.failing', { symbols: failing.map((m) => m.symbol).join(', ') })}
          />
        ) : (
          <Alert type="success" showIcon title={t('perp.health.allOk')} />
        ))}
      {health.isLoading && <Card loading />}
      {health.data?.markets.length === 0 && (
        <Typography.Text type="secondary">{t('perp.health.noMarkets')}</Typography.Text>
      )}
      <Row gutter={[16, 16]}>
        {(health.data?.markets ?? []).map((market) => (
          <Col key={market.symbol} xs={24} xl={12}>
            <MarketHealthCard market={market} />
          </Col>
        ))}
      </Row>
    </Space>
  );
}

function MarketHealthCard({ market }: { market: MarketHealth }) {
  const { t } = useTranslation();
  const isOk = market.invariants.every((i) => i.ok);
  return (
    <Card
      size="small"
      title={market.symbol}
      extra={<Tag color={isOk ? 'green' : 'red'}>{isOk ? t('perp.health.ok') : t('perp.health.broken')}</Tag>}
    >
      <Table<Invariant>
        rowKey="name"
        size="small"
        pagination={false}
        dataSource={market.invariants}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          {
            title: t('perp.health.invariant'),
            render: (_, row) => (
              <Space orientation="vertical" size={0}>
                <span>{t(`perp.health.names.${row.name}`)}</span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t(`perp.health.rules.${row.name}`)}
                </Typography.Text>
              </Space>
            ),
          },
          numberColumn(t('perp.health.value'), (row) => decimalText(row.value)),
          numberColumn(t('perp.health.expected'), (row) => decimalText(row.expected)),
          {
            title: t('perp.health.result'),
            render: (_, row) => (
              <Tag color={row.ok ? 'green' : 'red'}>
                {row.ok ? t('perp.health.ok') : t('perp.health.broken')}
              </Tag>
            ),
          },
        ]}
      />
    </Card>
  );
}
