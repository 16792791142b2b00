import type { BillLine } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { describeBillKind, describeBillType } from './bill-type.ts';
import { Money, useFormatTime } from './money.tsx';

/** Statement lines: what happened, when, the signed amount and the balance after it. */
export function BillRows({ lines }: { lines: readonly BillLine[] }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  return (
    <ul className="wallet-list" data-testid="bill-list">
      {lines.map((line) => (
        <li key={line.id}>
          <Link
            to={withQuery(PATHS.billDetail, { id: line.id })}
            className="wallet-row"
            data-testid={`bill-row-${line.id}`}
            data-type={line.type}
          >
            <span className="wallet-row-main">
              <span className="wallet-row-title">
                {describeBillType(t, line.type)} · {line.coin}
              </span>
              <span className="wallet-row-sub">
                {describeBillKind(t, line.kind)} · {formatTime(line.created_at)}
              </span>
            </span>
            <span className="wallet-row-end">
              <Money
                className={
                  line.amount.startsWith('-') ? 'wallet-row-amount is-debit' : 'wallet-row-amount is-credit'
                }
                value={line.amount}
                isSigned
              />
              <span className="wallet-row-sub">
                {t('wallet.bills.balanceAfter')} <Money value={line.balance_after} />
              </span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
