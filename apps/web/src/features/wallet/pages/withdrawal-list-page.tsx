import '../components/wallet.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useWithdrawalList } from '../api/get-withdrawal-list.ts';
import { StatusTag } from '../components/status-tag.tsx';

/** `User/txlist`: the user's withdrawals, newest first, each with its state. */
export default function WithdrawalListPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const withdrawals = useWithdrawalList();
  const records = withdrawals.data?.pages.flatMap((page) => page.list) ?? [];

  let content: ReactNode;
  if (withdrawals.isPending) content = <ListSkeleton />;
  else if (withdrawals.isError && records.length === 0)
    content = <ErrorState message={withdrawals.error.message} onRetry={() => withdrawals.refetch()} />;
  else if (records.length === 0)
    content = (
      <EmptyState
        message={t('wallet.withdrawalList.empty')}
        action={
          <Link to={PATHS.withdraw} className="text-button">
            {t('wallet.actions.withdraw')}
          </Link>
        }
      />
    );
  else
    content = (
      <>
        <ul className="item-list" data-testid="withdrawal-list">
          {records.map((record) => (
            <li key={record.id}>
              <Link
                to={withQuery(PATHS.withdrawDetail, { id: record.id })}
                className="item-row"
                data-testid={`withdrawal-row-${record.id}`}
              >
                <span className="item-row-main">
                  <span className="item-row-title">
                    {record.coin} ·{' '}
                    {record.type === 'bank' ? t('wallet.withdraw.bankNetwork') : record.network}
                  </span>
                  <span className="item-row-sub">
                    {formatTime(record.created_at)}
                    {record.status !== 'review' && (
                      <span data-testid={`withdrawal-notified-${record.id}`}>
                        {' · '}
                        {record.notified ? t('wallet.notified.yes') : t('wallet.notified.no')}
                      </span>
                    )}
                  </span>
                </span>
                <span className="wallet-row-end">
                  <Amount className="wallet-row-amount" value={record.amount} />
                  <StatusTag status={record.status} testId={`withdrawal-status-${record.id}`} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
        <LoadMore query={withdrawals} />
      </>
    );

  return (
    <Page title={t('wallet.withdrawalList.title')}>
      <PullToRefresh onRefresh={() => withdrawals.refetch()}>{content}</PullToRefresh>
    </Page>
  );
}
