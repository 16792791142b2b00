import '../components/delivery.css';
import type { ContractRecord, IndexConstituent } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { useServerNow } from '../../../shared/server-clock.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { ErrorState } from '../../../shared/ui/state-block.tsx';
import { isLive } from '../api/contract-status.ts';
import { useContract } from '../api/get-contract.ts';
import { ratioPercent } from '../components/contract-math.ts';
import { Countdown } from '../components/contract-row.tsx';
import {
  DirectionTag,
  ResultTag,
  StatusTag,
  useFormatPeriod,
  usePercent,
  useSourceLabel,
} from '../components/labels.tsx';
import { pairLabel } from '../components/pair-label.ts';

interface Row {
  label: string;
  value: ReactNode;
  testId: string;
}

function Rows({ rows }: { rows: readonly Row[] }) {
  return (
    <dl className="detail-list">
      {rows.map((row) => (
        <div key={row.testId} className="contract-detail-row">
          <dt>{row.label}</dt>
          <dd data-testid={row.testId}>{row.value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Time({ ms, testId }: { ms: number | null; testId?: string }) {
  const formatTime = useFormatTime('medium');
  return (
    <time dateTime={ms ? new Date(ms).toISOString() : undefined} data-at={ms ?? ''} data-testid={testId}>
      {formatTime(ms)}
    </time>
  );
}

const REASON_KEYS = {
  stale: 'delivery.constituents.reason.stale',
  outlier: 'delivery.constituents.reason.outlier',
  down: 'delivery.constituents.reason.down',
  unmapped: 'delivery.constituents.reason.unmapped',
  invalid: 'delivery.constituents.reason.invalid',
} as const;

/**
 * The sources' prices that made one index tick: each source's price and its own time, and
 * whether the median used it or why it was left out — so a customer can check the price a
 * contract opened or settled on against the venues themselves.
 */
function Constituents({
  title,
  constituents,
  testId,
}: {
  title: string;
  constituents: readonly IndexConstituent[] | null;
  testId: string;
}) {
  const { t } = useTranslation();
  const sourceLabel = useSourceLabel();
  if (!constituents || constituents.length === 0) return null;
  return (
    <section className="detail-list constituents" data-testid={testId} aria-label={title}>
      <h2 className="constituents-title">{title}</h2>
      <ul>
        {constituents.map((c) => (
          <li key={c.source} className={`constituent${c.used ? '' : ' is-dropped'}`} data-source={c.source}>
            <span className="constituent-source">{sourceLabel(c.source)}</span>
            <span className="constituent-state" data-used={c.used}>
              {c.used ? t('delivery.constituents.used') : c.reason ? t(REASON_KEYS[c.reason]) : '—'}
            </span>
            <span className="constituent-price">{c.price === null ? '—' : <Amount value={c.price} />}</span>
            <span className="constituent-time">
              <Time ms={c.at} />
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Outcome({ record, now }: { record: ContractRecord; now: number }) {
  const { t } = useTranslation();
  if (isLive(record))
    return (
      <section className="detail-status">
        <span className="contract-hero-label">{t('delivery.contract.timeLeft')}</span>
        <Countdown record={record} now={now} testId="contract-countdown" />
        <StatusTag status={record.status} testId="contract-status-tag" />
      </section>
    );
  return (
    <section className="detail-status">
      <span className="contract-hero-label">{t('delivery.contract.profit')}</span>
      <Amount
        value={record.profit ?? '0'}
        unit="USDT"
        isSigned
        hasTone
        className="contract-hero-profit"
        testId="contract-hero-profit"
      />
      {record.result && <ResultTag result={record.result} testId="contract-result-tag" />}
    </section>
  );
}

/**
 * `Contract/cbillinfo?id=…`: every field of a delivery contract — amount, period, direction,
 * opening and closing price with their times and index source, the result, the profit or loss,
 * the status and the yield ratio, then the sources' prices each index tick was made of. An
 * opening contract waits for its opening tick, an open one counts down, and both fill in by
 * themselves.
 */
export default function ContractDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const contract = useContract(params.get('id') ?? '');
  const now = useServerNow();
  const formatPeriod = useFormatPeriod();
  const sourceLabel = useSourceLabel();
  const percent = usePercent();
  const record = contract.data;

  return (
    <Page title={t('delivery.contract.title')}>
      {contract.isPending ? (
        <Skeleton.Paragraph lineCount={10} animated />
      ) : contract.isError || !record ? (
        <ErrorState message={contract.error?.message} onRetry={() => contract.refetch()} />
      ) : (
        <>
          <Outcome record={record} now={now} />
          <Rows
            rows={[
              {
                label: t('delivery.contract.market'),
                value: pairLabel(record.symbol),
                testId: 'contract-market',
              },
              {
                label: t('delivery.contract.direction'),
                value: <DirectionTag direction={record.direction} />,
                testId: 'contract-direction',
              },
              {
                label: t('delivery.contract.amount'),
                value: <Amount value={record.amount} unit="USDT" />,
                testId: 'contract-amount',
              },
              {
                label: t('delivery.contract.funding'),
                value:
                  record.funding === 'trial' ? t('delivery.funding.trialMoney') : t('delivery.funding.real'),
                testId: 'contract-funding',
              },
              {
                label: t('delivery.contract.period'),
                value: formatPeriod(record.period),
                testId: 'contract-period',
              },
              {
                label: t('delivery.contract.ratio'),
                value: <span className="num">{percent(ratioPercent(record.ratio))}</span>,
                testId: 'contract-ratio',
              },
              // why: both prices with every recorded digit, so a close that differs from the
              // opening only beyond the market's display precision still reads as different.
              {
                label: t('delivery.contract.openPrice'),
                value: record.open_price ? <Amount value={record.open_price} /> : '—',
                testId: 'contract-open-price',
              },
              {
                label: t('delivery.contract.openTime'),
                value: <Time ms={record.open_at} />,
                testId: 'contract-open-time',
              },
              {
                label: t('delivery.contract.openSource'),
                value: sourceLabel(record.open_source),
                testId: 'contract-open-source',
              },
              {
                label: t('delivery.contract.expiresAt'),
                value: <Time ms={record.expires_at} />,
                testId: 'contract-expires',
              },
              {
                label: t('delivery.contract.closePrice'),
                value: record.close_price ? <Amount value={record.close_price} /> : '—',
                testId: 'contract-close-price',
              },
              {
                label: t('delivery.contract.closeTime'),
                value: <Time ms={record.close_at} />,
                testId: 'contract-close-time',
              },
              {
                label: t('delivery.contract.closeSource'),
                value: sourceLabel(record.close_source),
                testId: 'contract-close-source',
              },
              {
                label: t('delivery.contract.profitLoss'),
                value:
                  record.profit === null ? (
                    '—'
                  ) : (
                    <Amount value={record.profit} unit="USDT" isSigned hasTone />
                  ),
                testId: 'contract-profit',
              },
              {
                label: t('delivery.contract.status'),
                value: <StatusTag status={record.status} />,
                testId: 'contract-status',
              },
              {
                label: t('delivery.contract.settledAt'),
                value: <Time ms={record.settled_at} />,
                testId: 'contract-settled-at',
              },
              {
                label: t('delivery.contract.id'),
                value: <span className="num">{record.id}</span>,
                testId: 'contract-id',
              },
            ]}
          />
          <Constituents
            title={t('delivery.constituents.opening')}
            constituents={record.open_constituents}
            testId="contract-open-constituents"
          />
          <Constituents
            title={t('delivery.constituents.closing')}
            constituents={record.close_constituents}
            testId="contract-close-constituents"
          />
        </>
      )}
    </Page>
  );
}
