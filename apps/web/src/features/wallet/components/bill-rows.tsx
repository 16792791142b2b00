import type { BillLine } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { describeBillKind, describeBillType } from './bill-type.ts';

/** Statement lines: what happened, when, the signed amount and the balance after it. */
export function BillRows({ lines }: { lines: readonly BillLine[] }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  return (
    <ul className="item-list" data-testid="bill-list">
      {lines.map((line) => (
        <li key={line.id}>
          <Link
            to={withQuery(PATHS.billDetail, { id: line.id })}
            className="item-row"
            data-testid={`bill-row-${line.id}`}
            data-type={line.type}
          >
            <span className="item-row-main">
              <span className="item-row-title">
                {describeBillType(t, line.type)} · {line.coin}
              </span>
              <span className="item-row-sub">
                {describeBillKind(t, line.kind)} · {formatTime(line.created_at)}
              </span>
            </span>
            <span className="wallet-row-end">
              <Amount
                className={
                  line.amount.startsWith('-') ? 'wallet-row-amount is-debit' : 'wallet-row-amount is-credit'
                }
                value={line.amount}
                isSigned
              />
              <span className="item-row-sub">
                {t('wallet.bills.balanceAfter')} <Amount value={line.balance_after} />
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
