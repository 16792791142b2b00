import type { AdminInsuranceMove } from '@bourse/shared/api';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useInsurance } from '../api/list-insurance.ts';
import { decimalText, HistoryTab, numberColumn, SignedAmount } from './common.tsx';

const KIND_COLOURS: Record<AdminInsuranceMove['kind'], string> = {
  takeover: 'orange',
  unwind: 'blue',
  bankrupt: 'red',
  funding: 'cyan',
  adl: 'purple',
  topup: 'green',
};

/** Every movement of the insurance funds: what moved, why, and the balance after it. */
export function InsuranceTab() {
  const { t } = useTranslation();
  return (
    <HistoryTab<AdminInsuranceMove>
      useRows={useInsurance}
      columns={[
        { title: t('perp.market'), dataIndex: 'symbol' },
        {
          title: t('perp.kind'),
          render: (_, row) => (
            <Tag color={KIND_COLOURS[row.kind]} title={t(`perp.kindHelp.${row.kind}`)}>
              {t(`perp.kinds.${row.kind}`)}
            </Tag>
          ),
        },
        numberColumn(t('perp.amountUsdt'), (row) => <SignedAmount value={row.amount} />),
        numberColumn(t('perp.balanceAfter'), (row) => decimalText(row.balanceAfter)),
        { title: t('perp.ref'), dataIndex: 'ref' },
      ]}
    />
  );
}
