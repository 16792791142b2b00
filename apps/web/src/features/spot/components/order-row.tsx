import type { SpotMarket, SpotOrder } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import {
  OrderStatusTag,
  pairLabel,
  SideTag,
  TriggerConditionText,
  usePercent,
  useTypeLabel,
} from './labels.tsx';
import { completionWidth } from './order-math.ts';

/**
 * One order: market, side and type, time; a trigger order's condition and whether it fired; price,
 * quantity and how much of it is filled; its state. An open one has a cancel button beside the
 * link to its detail.
 */
export function OrderRow({
  order,
  markets,
  onCancel,
  isCancelling = false,
}: {
  order: SpotOrder;
  markets: readonly SpotMarket[] | undefined;
  onCancel?: (order: SpotOrder) => void;
  isCancelling?: boolean;
}) {
  const { t } = useTranslation();
  const typeLabel = useTypeLabel();
  const percent = usePercent();
  const formatTime = useFormatTime('short');
  const market = markets?.find((each) => each.symbol === order.symbol);
  const priceDecimals = market?.price_decimals ?? 8;
  const qtyDecimals = market?.qty_decimals ?? 8;
  const base = market?.base ?? '';
  const quote = market?.quote ?? '';
  return (
    <li className="order-row" data-testid={`order-row-${order.id}`} data-status={order.status}>
      <Link to={withQuery(PATHS.orderDetail, { id: order.id })} className="order-row-link">
        <span className="order-row-head">
          <SideTag side={order.side} />
          <span className="order-row-pair">{pairLabel(order.symbol, markets)}</span>
          <span className="order-row-type">{typeLabel(order.type)}</span>
          <span className="order-row-time num">{formatTime(order.created_at)}</span>
        </span>
        {order.trigger_condition && (
          <span className="order-row-trigger">
            <span className="order-row-label">{t('spot.order.triggerCondition')}</span>
            <TriggerConditionText
              order={order}
              decimals={priceDecimals}
              testId={`order-trigger-${order.id}`}
            />
          </span>
        )}
        <span className="order-row-grid">
          <span className="order-row-cell">
            <span className="order-row-label">{t('spot.order.price')}</span>
            {order.price ? (
              <Amount value={order.price} decimals={priceDecimals} />
            ) : (
              <span>{t('spot.form.marketPrice')}</span>
            )}
          </span>
          <span className="order-row-cell">
            <span className="order-row-label">
              {order.qty ? t('spot.order.qty') : t('spot.order.quoteAmount')}
            </span>
            {order.qty ? (
              <Amount value={order.qty} decimals={qtyDecimals} unit={base} />
            ) : (
              <Amount value={order.quote_amount ?? '0'} decimals={8} unit={quote} />
            )}
          </span>
          <span className="order-row-cell">
            <span className="order-row-label">{t('spot.order.filled')}</span>
            <Amount
              value={order.filled_qty}
              decimals={qtyDecimals}
              unit={base}
              testId={`order-filled-${order.id}`}
            />
          </span>
        </span>
        <span className="order-row-progress">
          <span className="completion-bar" aria-hidden="true">
            <span style={{ width: `${completionWidth(order.completion)}%` }} />
          </span>
          <span className="num">{percent(order.completion)}</span>
          <OrderStatusTag status={order.status} testId={`order-status-${order.id}`} />
        </span>
      </Link>
      {onCancel && order.status === 'entrusted' && (
        <Button
          size="small"
          fill="outline"
          className="order-cancel"
          loading={isCancelling}
          disabled={isCancelling}
          onClick={() => onCancel(order)}
          aria-label={t('spot.order.cancelOne', { pair: pairLabel(order.symbol, markets) })}
          data-testid={`order-cancel-${order.id}`}
        >
          {t('spot.order.cancel')}
        </Button>
      )}
    </li>
  );
}
