import type { AdminLiquidation } from '@bourse/shared/api';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLiquidations } from '../api/list-liquidations.ts';
import { decimalText, HistoryTab, numberColumn, UserCell } from './common.tsx';

/** Positions the insurance fund took over at their bankruptcy price, and what was left of their margin. */
export function LiquidationsTab() {
  const { t } = useTranslation();
  return (
    <HistoryTab<AdminLiquidation>
      useRows={useLiquidations}
      columns={[
        { title: t('perp.market'), dataIndex: 'symbol' },
        {
          title: t('perp.user'),
          render: (_, row) => <UserCell userId={row.userId} username={row.username} />,
        },
        {
          title: t('perp.side'),
          render: (_, row) => (
            <Tag color={row.side === 'long' ? 'green' : 'red'}>{t(`perp.sides.${row.side}`)}</Tag>
          ),
        },
        numberColumn(t('perp.qty'), (row) => decimalText(row.qty)),
        numberColumn(t('perp.entryPrice'), (row) => decimalText(row.entryPrice)),
        numberColumn(t('perp.margin'), (row) => decimalText(row.margin)),
        numberColumn(t('perp.mark'), (row) => decimalText(row.mark)),
        numberColumn(t('perp.bankruptcyPrice'), (row) => decimalText(row.bankruptcyPrice)),
        numberColumn(t('perp.remainder'), (row) => decimalText(row.remainder)),
      ]}
    />
  );
}
