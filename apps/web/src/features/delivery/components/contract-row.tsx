import type { ContractRecord } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatCountdown, secondsLeft } from '../../../shared/format/countdown.ts';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { isLive } from '../api/contract-status.ts';
import { isAwaitingSettlement } from '../api/get-contract-list.ts';
import { DirectionTag, ResultTag, StatusTag, useFormatPeriod } from './labels.tsx';
import { pairLabel } from './pair-label.ts';

/**
 * The time left of an open contract, ticking each second; "opening" until its opening index tick
 * is recorded, "settling" once it has run out.
 */
export function Countdown({ record, now, testId }: { record: ContractRecord; now: number; testId?: string }) {
  const { t } = useTranslation();
  if (record.status === 'opening')
    return (
      <span className="contract-countdown is-settling" data-testid={testId} data-state="opening">
        {t('delivery.status.opening')}
      </span>
    );
  if (isAwaitingSettlement(record, now))
    return (
      <span className="contract-countdown is-settling" data-testid={testId} data-state="settling">
        {t('delivery.status.settling')}
      </span>
    );
  const left = secondsLeft(record.expires_at, now, record.period);
  return (
    <span
      className="contract-countdown num"
      data-testid={testId}
      data-state="open"
      data-seconds={left}
      role="timer"
      aria-label={t('delivery.contract.timeLeft')}
    >
      {formatCountdown(left, (days) => t('delivery.duration.days', { value: days }))}
    </span>
  );
}

/** One contract in a list: market, direction, amount and period; the countdown or the outcome. */
export function ContractRow({ record, now }: { record: ContractRecord; now: number }) {
  const { t } = useTranslation();
  const formatPeriod = useFormatPeriod();
  const isOpen = isLive(record);
  return (
    <li>
      <Link
        to={withQuery(PATHS.contractDetail, { id: record.id })}
        className="item-row"
        data-testid={`contract-row-${record.id}`}
      >
        <span className="item-row-main">
          <span className="item-row-title contract-row-title">
            {pairLabel(record.symbol)}
            <DirectionTag direction={record.direction} />
            {record.funding === 'trial' && (
              <span className="contract-tag is-trial">{t('delivery.funding.trial')}</span>
            )}
          </span>
          <span className="item-row-sub">
            <Amount value={record.amount} unit="USDT" /> · {formatPeriod(record.period)}
          </span>
        </span>
        <span className="contract-row-end">
          {isOpen ? (
            <Countdown record={record} now={now} testId={`contract-countdown-${record.id}`} />
          ) : (
            <>
              <Amount
                value={record.profit ?? '0'}
                unit="USDT"
                isSigned
                hasTone
                className="contract-row-profit"
                testId={`contract-profit-${record.id}`}
              />
              {record.result ? <ResultTag result={record.result} /> : <StatusTag status={record.status} />}
            </>
          )}
        </span>
      </Link>
    </li>
  );
}
