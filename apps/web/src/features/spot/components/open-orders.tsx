import type { SpotMarket, SpotOrder } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { memo, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { lazySheet } from '../../../shared/ui/lazy-sheet.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useCancelAll, useCancelOrder, useOpenOrders } from '../api/orders.ts';
import { pairLabel } from './labels.tsx';
import { OrderRow } from './order-row.tsx';

const { Sheet: CancelAllSheet } = lazySheet(() =>
  import('./cancel-all-sheet.tsx').then((m) => m.CancelAllSheet),
);

/**
 * The user's open orders on this market, each with cancel, and cancel-all behind a confirmation.
 * Memoised: the trade page renders again on every ticker push, the list only for its own data.
 */
export const OpenOrders = memo(function OpenOrders({
  market,
  markets,
}: {
  market: SpotMarket;
  markets: readonly SpotMarket[];
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const orders = useOpenOrders(market.symbol, true);
  const cancel = useCancelOrder();
  const cancelAll = useCancelAll();
  const [isConfirming, setIsConfirming] = useState(false);
  const list = orders.data ?? [];

  function cancelOne(order: SpotOrder) {
    cancel.mutate(order.id, { onSuccess: (body) => showToast(body.msg, 'success') });
  }

  function confirmCancelAll() {
    cancelAll.mutate(market.symbol, {
      onSuccess: (body) => {
        showToast(body.msg, 'success');
        setIsConfirming(false);
      },
    });
  }

  return (
    <section className="open-orders" aria-labelledby={titleId}>
      <h2 className="section-title" id={titleId}>
        <span>{t('spot.open.title', { count: list.length })}</span>
        <span className="section-actions">
          {list.length > 0 && (
            <button
              type="button"
              className="text-button"
              onClick={() => setIsConfirming(true)}
              data-testid="cancel-all"
            >
              {t('spot.open.cancelAll')}
            </button>
          )}
          <Link to={PATHS.orderList} className="text-button" data-testid="all-orders">
            {t('spot.open.all')}
          </Link>
        </span>
      </h2>
      {orders.isPending ? (
        <Skeleton.Paragraph lineCount={2} animated />
      ) : orders.isError && list.length === 0 ? (
        <p className="open-orders-empty" role="alert">
          {t('common.loadFailed')}{' '}
          <button type="button" className="text-button" onClick={() => orders.refetch()}>
            {t('common.retry')}
          </button>
        </p>
      ) : list.length === 0 ? (
        <p className="open-orders-empty" data-testid="open-orders-empty">
          {t('spot.open.empty')}
        </p>
      ) : (
        <ul className="order-list" data-testid="open-orders">
          {list.map((order) => (
            <OrderRow
              key={order.id}
              order={order}
              markets={markets}
              onCancel={cancelOne}
              isCancelling={cancel.isPending && cancel.variables === order.id}
            />
          ))}
        </ul>
      )}
      <CancelAllSheet
        isOpen={isConfirming}
        isPending={cancelAll.isPending}
        titleId={`${titleId}-confirm`}
        text={t('spot.open.cancelAllText', {
          count: list.length,
          pair: pairLabel(market.symbol, markets),
        })}
        onClose={() => setIsConfirming(false)}
        onConfirm={confirmCancelAll}
      />
    </section>
  );
});
