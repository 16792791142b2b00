import type { AdminFundingEvent } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { useFunding } from '../api/list-funding.ts';
import { decimalText, HistoryTab, numberColumn, ratioPercent } from './common.tsx';

/**
 * Each funding event: the rate and mark it used, what the payers paid, what the receivers got,
 * and the rounding residual the fund kept (perpetual.md §1, funding).
 */
export function FundingTab() {
  const { t } = useTranslation();
  return (
    <HistoryTab<AdminFundingEvent>
      useRows={useFunding}
      columns={[
        { title: t('perp.market'), dataIndex: 'symbol' },
        numberColumn(t('perp.fundingRate'), (row) => ratioPercent(row.rate)),
        numberColumn(t('perp.mark'), (row) => decimalText(row.mark)),
        numberColumn(t('perp.paid'), (row) => decimalText(row.paid)),
        numberColumn(t('perp.received'), (row) => decimalText(row.received)),
        numberColumn(t('perp.residual'), (row) => decimalText(row.residual)),
        numberColumn(t('perp.positions'), (row) => row.positions),
      ]}
    />
  );
}
