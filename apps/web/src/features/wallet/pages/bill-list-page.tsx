import type { QueryClient } from '@tanstack/react-query';
import '../components/wallet.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { billsQueryOptions, useBills } from '../api/get-bills.ts';
import { BillRows } from '../components/bill-rows.tsx';
import { useQueryParam } from '../components/use-query-param.ts';

// why: the first page is fetched as soon as this module loads, while the texts load and React renders.
/** Its data is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient, search: URLSearchParams): void {
  void client.prefetchInfiniteQuery(billsQueryOptions((search.get('coin') ?? '').toUpperCase() || undefined));
}

/** Bills: every movement of the user's money (optionally one coin's), newest first. */
export default function BillListPage() {
  const { t } = useTranslation();
  const coin = useQueryParam('coin').toUpperCase();
  const bills = useBills(coin || undefined);
  const lines = bills.data?.pages.flatMap((page) => page.list) ?? [];

  let content: ReactNode;
  if (bills.isPending) content = <ListSkeleton />;
  else if (bills.isError && lines.length === 0)
    content = <ErrorState message={bills.error.message} onRetry={() => bills.refetch()} />;
  else if (lines.length === 0) content = <EmptyState message={t('wallet.bills.empty')} />;
  else
    content = (
      <>
        <BillRows lines={lines} />
        <LoadMore query={bills} />
      </>
    );

  return (
    <Page title={coin ? t('wallet.bills.coinTitle', { coin }) : t('wallet.bills.title')}>
      <PullToRefresh onRefresh={() => bills.refetch()}>{content}</PullToRefresh>
    </Page>
  );
}
