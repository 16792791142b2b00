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
import { useDepositList } from '../api/get-deposit-list.ts';
import { StatusTag } from '../components/status-tag.tsx';

/** `User/czlist`: the user's deposits, newest first, each with its state. */
export default function DepositListPage() {
  const { t } = useTranslation();
  const formatTime = useFormatTime();
  const deposits = useDepositList();
  const records = deposits.data?.pages.flatMap((page) => page.list) ?? [];

  let content: ReactNode;
  if (deposits.isPending) content = <ListSkeleton />;
  else if (deposits.isError && records.length === 0)
    content = <ErrorState message={deposits.error.message} onRetry={() => deposits.refetch()} />;
  else if (records.length === 0)
    content = (
      <EmptyState
        message={t('wallet.depositList.empty')}
        action={
          <Link to={PATHS.depositCoins} className="text-button">
            {t('wallet.actions.deposit')}
          </Link>
        }
      />
    );
  else
    content = (
      <>
        <ul className="item-list" data-testid="deposit-list">
          {records.map((record) => (
            <li key={record.id}>
              <Link
                to={withQuery(PATHS.depositDetail, { id: record.id })}
                className="item-row"
                data-testid={`deposit-row-${record.id}`}
              >
                <span className="item-row-main">
                  <span className="item-row-title">
                    {record.coin} · {record.network}
                  </span>
                  <span className="item-row-sub">{formatTime(record.created_at)}</span>
                </span>
                <span className="wallet-row-end">
                  <Amount className="wallet-row-amount" value={record.amount} />
                  <StatusTag status={record.status} testId={`deposit-status-${record.id}`} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
        <LoadMore query={deposits} />
      </>
    );

  return (
    <Page title={t('wallet.depositList.title')}>
      <PullToRefresh onRefresh={() => deposits.refetch()}>{content}</PullToRefresh>
    </Page>
  );
}
