import '../components/perp.css';
import { PERP_ORDER_STATUSES, type PerpOrder, type PerpOrderStatus } from '@bourse/shared/api';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useCancelPerpOrder } from '../api/cancel-order.ts';
import { usePerpOrders } from '../api/get-orders.ts';
import { usePerpMarkets } from '../api/get-perp-markets.ts';
import { OrderRow } from '../components/order-row.tsx';
import { PERP_PATHS } from '../components/paths.ts';

const TAB_KEYS: Record<PerpOrderStatus, { label: string; empty: string }> = {
  entrusted: { label: 'perp.status.entrusted', empty: 'perp.list.entrustedEmpty' },
  completed: { label: 'perp.status.completed', empty: 'perp.list.completedEmpty' },
  revoked: { label: 'perp.status.revoked', empty: 'perp.list.revokedEmpty' },
};

/**
 * `Trade/transbill`: the user's perpetual orders by the spec's states — entrusted (open and waiting
 * triggers, cancellable here), completed and revoked — newest first, page by page.
 */
export default function PerpOrderListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const wanted = params.get('status');
  const status: PerpOrderStatus = PERP_ORDER_STATUSES.find((each) => each === wanted) ?? 'entrusted';
  const orders = usePerpOrders(status);
  const markets = usePerpMarkets();
  const cancel = useCancelPerpOrder();
  const list = orders.data?.pages.flatMap((page) => page.list) ?? [];

  function cancelOne(order: PerpOrder) {
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
          <Link to={PERP_PATHS.trade} className="text-button">
            {t('perp.list.trade')}
          </Link>
        }
      />
    );
  else
    content = (
      <>
        <ul className="perp-list" data-testid={`perp-orders-${status}`}>
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
    <Page title={t('perp.list.title')} className="perp-page">
      <div className="perp-tabs" role="tablist" aria-label={t('perp.list.title')}>
        {PERP_ORDER_STATUSES.map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            aria-selected={each === status}
            className={each === status ? 'perp-tab is-active' : 'perp-tab'}
            onClick={() => setParams(each === 'entrusted' ? {} : { status: each }, { replace: true })}
            data-testid={`perp-orders-tab-${each}`}
          >
            {t(TAB_KEYS[each].label)}
          </button>
        ))}
      </div>
      <PullToRefresh onRefresh={() => orders.refetch()}>
        {orders.isPending ? content : <div data-testid="perp-orders">{content}</div>}
      </PullToRefresh>
    </Page>
  );
}
