import type { PerpAccount, PerpMarket, PerpOrder } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { showToast } from '../../../shared/ui/toast.ts';
import { useCancelPerpOrder } from '../api/cancel-order.ts';
import { OrderRow } from './order-row.tsx';
import { PERP_PATHS } from './paths.ts';

/**
 * The open orders of the account on this market, resting orders and waiting triggers apart, each
 * with cancel; they come with the account, read again after every action and every few seconds.
 */
export function OpenOrders({
  account,
  markets,
  isPending,
}: {
  account: PerpAccount | undefined;
  markets: readonly PerpMarket[];
  isPending: boolean;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const triggersId = useId();
  const cancel = useCancelPerpOrder();
  const orders = account?.orders ?? [];
  const resting = orders.filter((order) => order.state !== 'untriggered');
  const waiting = orders.filter((order) => order.state === 'untriggered');

  function cancelOne(order: PerpOrder) {
    cancel.mutate(order.id, { onSuccess: (body) => showToast(body.msg, 'success') });
  }

  const list = (items: PerpOrder[], empty: string, testId: string) =>
    isPending ? (
      <Skeleton.Paragraph lineCount={2} animated />
    ) : items.length === 0 ? (
      <p className="perp-empty" data-testid={`${testId}-empty`}>
        {empty}
      </p>
    ) : (
      <ul className="perp-list" data-testid={testId}>
        {items.map((order) => (
          <OrderRow
            key={order.id}
            order={order}
            markets={markets}
            onCancel={cancelOne}
            isCancelling={cancel.isPending && cancel.variables === order.id}
          />
        ))}
      </ul>
    );

  return (
    <>
      <section aria-labelledby={titleId}>
        <h2 className="perp-section-title" id={titleId}>
          <span>{t('perp.open.title', { count: resting.length })}</span>
          <Link to={PERP_PATHS.orderList} className="text-button" data-testid="perp-all-orders">
            {t('perp.open.all')}
          </Link>
        </h2>
        {list(resting, t('perp.open.empty'), 'perp-open-orders')}
      </section>
      <section aria-labelledby={triggersId}>
        <h2 className="perp-section-title" id={triggersId}>
          {t('perp.open.triggers', { count: waiting.length })}
        </h2>
        {list(waiting, t('perp.open.triggersEmpty'), 'perp-triggers')}
      </section>
    </>
  );
}
