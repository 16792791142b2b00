import type { AdminAdlEvent } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { useAdl } from '../api/list-adl.ts';
import { decimalText, HistoryTab, numberColumn, SignedAmount, UserCell } from './common.tsx';

/** Customers' positions closed by auto-deleveraging against the fund's lots, and their profit. */
export function AdlTab() {
  const { t } = useTranslation();
  return (
    <HistoryTab<AdminAdlEvent>
      useRows={useAdl}
      columns={[
        { title: t('perp.market'), dataIndex: 'symbol' },
        {
          title: t('perp.user'),
          render: (_, row) => <UserCell userId={row.userId} username={row.username} />,
        },
        numberColumn(t('perp.qty'), (row) => decimalText(row.qty)),
        numberColumn(t('perp.price'), (row) => decimalText(row.price)),
        numberColumn(t('perp.pnl'), (row) => <SignedAmount value={row.pnl} />),
      ]}
    />
  );
}
