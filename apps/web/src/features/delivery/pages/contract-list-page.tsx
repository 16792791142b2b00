import type { ContractListQuery } from '@bourse/shared/api';
import type { QueryClient } from '@tanstack/react-query';
import '../components/delivery.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { useServerNow } from '../../../shared/server-clock.ts';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { contractListQueryOptions, useContractList } from '../api/get-contract-list.ts';
import { ContractRow } from '../components/contract-row.tsx';

type ContractListStatus = NonNullable<ContractListQuery['status']>;

/** The list the address asks for: `?status=settled`, or the open contracts. */
function statusOf(params: URLSearchParams): ContractListStatus {
  return params.get('status') === 'settled' ? 'settled' : 'open';
}

// why: the list is asked for as the page's code arrives, while its texts load and the app renders.
/** The list the address names is asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient, search: URLSearchParams): void {
  void client.prefetchInfiniteQuery(contractListQueryOptions(statusOf(search)));
}

const TABS: readonly { status: ContractListStatus; label: string; empty: string }[] = [
  { status: 'open', label: 'delivery.list.open', empty: 'delivery.list.openEmpty' },
  { status: 'settled', label: 'delivery.list.settled', empty: 'delivery.list.settledEmpty' },
];

/** `Contract/ctbill`: the user's contracts, open (counting down or settling) or settled, newest first. */
export default function ContractListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const status = statusOf(params);
  const tab = TABS.find((each) => each.status === status) ?? TABS[0]!;
  const contracts = useContractList(status);
  const now = useServerNow();
  const records = contracts.data?.pages.flatMap((page) => page.list) ?? [];

  let content: ReactNode;
  if (contracts.isPending) content = <ListSkeleton />;
  else if (contracts.isError && records.length === 0)
    content = <ErrorState message={contracts.error.message} onRetry={() => contracts.refetch()} />;
  else if (records.length === 0)
    content = (
      <EmptyState
        message={t(tab.empty)}
        action={
          <Link to={PATHS.trade} className="text-button">
            {t('delivery.list.trade')}
          </Link>
        }
      />
    );
  else
    content = (
      <>
        <ul className="item-list" data-testid={`contract-list-${status}`}>
          {records.map((record) => (
            <ContractRow key={record.id} record={record} now={now} />
          ))}
        </ul>
        <LoadMore query={contracts} />
      </>
    );

  return (
    <Page title={t('delivery.list.title')}>
      <div className="list-tabs" role="tablist" aria-label={t('delivery.list.title')}>
        {TABS.map((each) => (
          <button
            key={each.status}
            type="button"
            role="tab"
            aria-selected={each.status === status}
            className={each.status === status ? 'list-tab is-active' : 'list-tab'}
            onClick={() =>
              setParams(each.status === 'open' ? {} : { status: each.status }, { replace: true })
            }
            data-testid={`contract-tab-${each.status}`}
          >
            {t(each.label)}
          </button>
        ))}
      </div>
      <PullToRefresh onRefresh={() => contracts.refetch()}>{content}</PullToRefresh>
    </Page>
  );
}
