import '../components/launchpad.css';
import type { IssueRecord } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useRecords } from '../api/launchpad.ts';

function RecordRow({ record }: { record: IssueRecord }) {
  const { t } = useTranslation();
  const formatTime = useFormatTime('medium');
  const rows: [string, React.ReactNode, string][] = [
    [t('launchpad.record.price'), <Amount key="p" value={record.price} unit={record.quote} />, 'price'],
    [
      t('launchpad.record.quantity'),
      <Amount key="q" value={record.quantity} decimals={4} unit={record.coin} />,
      'quantity',
    ],
    [t('launchpad.record.cycle'), t('launchpad.lockDays', { value: record.lock_days }), 'cycle'],
    [t('launchpad.record.time'), formatTime(record.created_at), 'time'],
    [t('launchpad.record.release'), formatTime(record.release_at), 'release'],
    [
      t('launchpad.record.committed'),
      <Amount key="c" value={record.committed} decimals={2} unit={record.quote} />,
      'committed',
    ],
    [
      t('launchpad.record.paid'),
      <Amount key="pd" value={record.paid} decimals={2} unit={record.quote} />,
      'paid',
    ],
    [
      t('launchpad.record.refunded'),
      <Amount key="r" value={record.refunded} decimals={2} unit={record.quote} />,
      'refunded',
    ],
  ];
  return (
    <article className="lp-record" data-testid={`record-${record.id}`}>
      <div className="lp-record-head">
        <span>{record.name}</span>
        <span className={`lp-status is-${record.status}`} data-testid={`record-status-${record.id}`}>
          {t(`launchpad.recordStatus.${record.status}`)}
          {record.stage === 'committed' ? ` · ${t('launchpad.awaitingAllocation')}` : ''}
        </span>
      </div>
      <dl className="lp-rows">
        {rows.map(([label, value, key]) => (
          <div key={key}>
            <dt>{label}</dt>
            <dd data-testid={`record-${key}-${record.id}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}

/**
 * `/Issue/issuelog`: the user's subscription records with the spec's fields: project, unit price,
 * quantity, freeze cycle, subscription and release times, amount paid, frozen or thawed.
 */
export default function RecordListPage() {
  const { t } = useTranslation();
  const records = useRecords();
  const list = records.data?.pages.flatMap((page) => page.list) ?? [];
  return (
    <Page title={t('launchpad.records')}>
      {records.isPending ? (
        <ListSkeleton rows={4} />
      ) : records.isError ? (
        <ErrorState message={records.error.message} onRetry={() => records.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState message={t('launchpad.noRecords')} testId="records-empty" />
      ) : (
        <div data-testid="record-list">
          {list.map((record) => (
            <RecordRow key={record.id} record={record} />
          ))}
          <LoadMore query={records} />
        </div>
      )}
    </Page>
  );
}
