import type { QueryClient } from '@tanstack/react-query';
import '../components/spot.css';
import { ORDER_STATUSES, type SpotOrder, type SpotOrderStatus } from '@bourse/shared/api';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { spotMarketsQueryOptions, useSpotMarkets } from '../api/get-spot-markets.ts';
import { orderHistoryQueryOptions, useOrderHistory } from '../api/order-history.ts';
import { useCancelOrder } from '../api/orders.ts';
import { OrderRow } from '../components/order-row.tsx';

const TAB_KEYS: Record<SpotOrderStatus, { label: string; empty: string }> = {
  entrusted: { label: 'spot.status.entrusted', empty: 'spot.list.entrustedEmpty' },
  completed: { label: 'spot.status.completed', empty: 'spot.list.completedEmpty' },
  revoked: { label: 'spot.status.revoked', empty: 'spot.list.revokedEmpty' },
};

/** The orders the address names are asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient, search: URLSearchParams): void {
  const wanted = search.get('status');
  const status = ORDER_STATUSES.find((each) => each === wanted) ?? 'entrusted';
  void client.prefetchInfiniteQuery(orderHistoryQueryOptions(status));
  void client.prefetchQuery(spotMarketsQueryOptions());
}

/**
 * `Trade/tradebill`: the user's spot orders by the spec's states — entrusted (open, cancellable
 * here), completed and revoked — newest first, page by page.
 */
export default function OrderListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const wanted = params.get('status');
  const status: SpotOrderStatus = ORDER_STATUSES.find((each) => each === wanted) ?? 'entrusted';
  const orders = useOrderHistory(status);
  const markets = useSpotMarkets();
  const cancel = useCancelOrder();
  const list = orders.data?.pages.flatMap((page) => page.list) ?? [];

  function cancelOne(order: SpotOrder) {
    cancel.mutate(order.id, { onSuccess: (body) => showToast(body.msg, 'success') });
  }

  let content: ReactNode;
  if (orders.isPending) content = <ListSkeleton />;
  else if (orders.isError && list.length === 0)
    content = <ErrorState message={orders.error.message} onRetry={() => orders.refetch()} />;
  else if (list.length === 0)
    content = (
      <EmptyState
        message={t(TAB_KEYS[status].empty)}
        action={
          <Link to={PATHS.spotTrade} className="text-button">
            {t('spot.list.trade')}
          </Link>
        }
      />
    );
  else
    content = (
      <>
        <ul className="order-list" data-testid={`order-list-${status}`}>
          {list.map((order) => (
            <OrderRow
              key={order.id}
              order={order}
              markets={markets.data}
              onCancel={status === 'entrusted' ? cancelOne : undefined}
              isCancelling={cancel.isPending && cancel.variables === order.id}
            />
          ))}
        </ul>
        <LoadMore query={orders} />
      </>
    );

  return (
    <Page title={t('spot.list.title')} className="spot-orders-page">
      <div className="spot-tabs" role="tablist" aria-label={t('spot.list.title')}>
        {ORDER_STATUSES.map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            aria-selected={each === status}
            className={each === status ? 'spot-tab is-active' : 'spot-tab'}
            onClick={() => setParams(each === 'entrusted' ? {} : { status: each }, { replace: true })}
            data-testid={`order-tab-${each}`}
          >
            {t(TAB_KEYS[each].label)}
          </button>
        ))}
      </div>
      <PullToRefresh onRefresh={() => orders.refetch()}>
        {orders.isPending ? content : <div data-testid="order-list">{content}</div>}
      </PullToRefresh>
    </Page>
  );
}
