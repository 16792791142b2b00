import type { DeliveryExposure } from '@bourse/shared/api';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Progress, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { listExposure } from '../api/list-exposure.ts';
import { formatBasisPoints, usageBasisPoints } from './common.tsx';

/** Open exposure per market and direction against the product's cap. */
export function ExposureTab() {
  const { t } = useTranslation();
  const exposure = useQuery({
    queryKey: ['delivery', 'exposure'],
    queryFn: listExposure,
  });
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Button onClick={() => void exposure.refetch()} loading={exposure.isFetching}>
        {t('common.refresh')}
      </Button>
      {exposure.isError && <Alert type="error" title={exposure.error.message} />}
      <Table<DeliveryExposure>
        rowKey={(row) => `${row.symbol}:${row.direction}`}
        loading={exposure.isLoading}
        dataSource={exposure.data ?? []}
        pagination={false}
        locale={{ emptyText: t('common.empty') }}
        columns={[
          { title: t('delivery.symbol'), dataIndex: 'symbol' },
          {
            title: t('delivery.direction'),
            render: (_, row) => (
              <Tag color={row.direction === 'up' ? 'green' : 'red'}>
                {t(`delivery.directions.${row.direction}`)}
              </Tag>
            ),
          },
          { title: t('delivery.openCount'), dataIndex: 'openCount' },
          { title: t('delivery.openAmount'), dataIndex: 'open' },
          { title: t('delivery.potentialPayout'), dataIndex: 'potentialPayout' },
          { title: t('delivery.maxExposure'), dataIndex: 'maxExposure' },
          { title: t('delivery.usage'), render: (_, row) => <Usage row={row} /> },
        ]}
      />
    </Space>
  );
}

function Usage({ row }: { row: DeliveryExposure }) {
  const { t } = useTranslation();
  const basisPoints = usageBasisPoints(row.open, row.maxExposure);
  if (basisPoints === null) return <>{t('delivery.noCap')}</>;
  // why: the bar only draws the exact ratio; the text beside it is computed on atoms.
  const percent = Math.min(100, Number(basisPoints) / 100);
  return (
    <Space>
      <Progress
        percent={percent}
        showInfo={false}
        size="small"
        status={basisPoints >= 10_000n ? 'exception' : 'normal'}
        style={{ width: 120 }}
      />
      <span>{formatBasisPoints(basisPoints)}</span>
    </Space>
  );
}
