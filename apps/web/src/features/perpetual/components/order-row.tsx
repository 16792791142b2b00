import type { PerpMarket, PerpOrder } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatPercent } from '../../../shared/format/format-percent.ts';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { withQuery } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import {
  isStateInStatus,
  pairLabel,
  priceLabelKey,
  SideTag,
  StatusTag,
  useStateLabel,
  useTriggerText,
  useTypeLabel,
} from './labels.tsx';
import { PERP_PATHS } from './paths.ts';

/**
 * One order: side, market, type and time; a trigger's condition; price, quantity, filled; its state.
 * An open one has a cancel button beside the link to its detail.
 */
export function OrderRow({
  order,
  markets,
  onCancel,
  isCancelling = false,
}: {
  order: PerpOrder;
  markets: readonly PerpMarket[] | undefined;
  onCancel?: (order: PerpOrder) => void;
  isCancelling?: boolean;
}) {
  const { t } = useTranslation();
  const formatPercent = useFormatPercent();
  const typeLabel = useTypeLabel();
  const stateLabel = useStateLabel();
  const triggerText = useTriggerText();
  const formatTime = useFormatTime('short');
  const market = markets?.find((each) => each.symbol === order.symbol);
  const priceDecimals = market?.price_decimals ?? 8;
  const qtyDecimals = market?.qty_decimals ?? 8;
  const trigger = triggerText(order, priceDecimals);
  const pair = pairLabel(order.symbol, markets);
  return (
    <li className="perp-row" data-testid={`perp-order-${order.id}`} data-status={order.status}>
      <Link to={withQuery(PERP_PATHS.orderDetail, { id: order.id })} className="perp-row-link">
        <span className="perp-row-head">
          <SideTag side={order.side} />
          <span>{pair}</span>
          <span className="perp-muted">{typeLabel(order.type)}</span>
          {order.reduce_only && <span className="perp-muted">{t('perp.order.reduceOnly')}</span>}
          <span className="perp-muted num">{formatTime(order.created_at)}</span>
        </span>
        {trigger && (
          <span className="perp-muted" data-testid={`perp-order-trigger-${order.id}`}>
            {t('perp.order.triggerCondition')}: {trigger}
          </span>
        )}
        <dl className="perp-row-grid">
          <div>
            <dt>{t(priceLabelKey(order.type))}</dt>
            <dd>
              {order.price ? (
                <Amount value={order.price} decimals={priceDecimals} />
              ) : (
                t('perp.form.marketShort')
              )}
            </dd>
          </div>
          <div>
            <dt>{t('perp.order.qty')}</dt>
            <dd>
              {order.close_position && order.state === 'untriggered' ? (
                t('perp.order.wholePosition')
              ) : (
                <Amount value={order.qty} decimals={qtyDecimals} />
              )}
            </dd>
          </div>
          <div>
            <dt>{t('perp.order.filled')}</dt>
            <dd>
              <Amount value={order.filled_qty} decimals={qtyDecimals} />
            </dd>
          </div>
        </dl>
        <span className="perp-row-head">
          <StatusTag status={order.status} />
          {!isStateInStatus(order) && (
            <span className="perp-muted" data-testid={`perp-order-state-${order.id}`}>
              {stateLabel(order.state)}
            </span>
          )}
          <span className="perp-muted num">{formatPercent.ratio(order.degree)}</span>
        </span>
      </Link>
      {onCancel && order.status === 'entrusted' && (
        <Button
          size="small"
          fill="outline"
          className="perp-row-cancel"
          loading={isCancelling}
          disabled={isCancelling}
          onClick={() => onCancel(order)}
          aria-label={t('perp.order.cancelOne', { pair })}
          data-testid={`perp-cancel-${order.id}`}
        >
          {t('perp.order.cancel')}
        </Button>
      )}
    </li>
  );
}
