import type {
  PerpEndReason,
  PerpMarket,
  PerpOrder,
  PerpOrderStatus,
  PerpOrderType,
  PerpTriggerRef,
} from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { hasLimitPrice } from './perp-math.ts';

const TYPE_KEYS: Record<PerpOrderType, string> = {
  limit: 'perp.type.limit',
  market: 'perp.type.market',
  stop_market: 'perp.type.stop_market',
  stop_limit: 'perp.type.stop_limit',
  take_profit_market: 'perp.type.take_profit_market',
  take_profit_limit: 'perp.type.take_profit_limit',
};
const STATUS_KEYS: Record<PerpOrderStatus, string> = {
  entrusted: 'perp.status.entrusted',
  completed: 'perp.status.completed',
  revoked: 'perp.status.revoked',
};
const STATE_KEYS: Record<PerpOrder['state'], string> = {
  untriggered: 'perp.state.untriggered',
  new: 'perp.state.new',
  partial: 'perp.state.partial',
  filled: 'perp.state.filled',
  cancelled: 'perp.state.cancelled',
  expired: 'perp.state.expired',
  rejected: 'perp.state.rejected',
};
const END_KEYS: Record<PerpEndReason, string> = {
  user: 'perp.end.user',
  ioc: 'perp.end.ioc',
  reduce_only: 'perp.end.reduce_only',
  liquidation: 'perp.end.liquidation',
  adl: 'perp.end.adl',
  oco: 'perp.end.oco',
  self_trade: 'perp.end.self_trade',
  position_closed: 'perp.end.position_closed',
  trigger_rejected: 'perp.end.trigger_rejected',
  price_protect: 'perp.end.price_protect',
};
const SIDE_KEYS = {
  buy: 'perp.side.buy',
  sell: 'perp.side.sell',
  long: 'perp.side.long',
  short: 'perp.side.short',
} as const;
const REF_KEYS: Record<PerpTriggerRef, string> = { last: 'perp.ref.last', mark: 'perp.ref.mark' };

export function useTypeLabel(): (type: PerpOrderType) => string {
  const { t } = useTranslation();
  return (type) => t(TYPE_KEYS[type]);
}

export function useStateLabel(): (state: PerpOrder['state']) => string {
  const { t } = useTranslation();
  return (state) => t(STATE_KEYS[state]);
}

/**
 * The state a status already says: an open order that nothing has filled, a completed one that
 * filled in whole, a revoked one that was cancelled. A row shows the state beside the status only
 * when it adds to it (waiting for a trigger, partly filled, expired, rejected), so no language
 * reads the same word twice.
 */
const PLAIN_STATE: Record<PerpOrderStatus, PerpOrder['state']> = {
  entrusted: 'new',
  completed: 'filled',
  revoked: 'cancelled',
};

/**
 * The label of an order's price: a limit order's own limit, or for a market order the band price
 * it was capped at, which is no limit the customer chose.
 */
export function priceLabelKey(type: PerpOrderType): string {
  return hasLimitPrice(type) ? 'perp.order.price' : 'perp.order.bandPrice';
}

export function isStateInStatus(order: Pick<PerpOrder, 'state' | 'status'>): boolean {
  return PLAIN_STATE[order.status] === order.state;
}

export function useEndReasonLabel(): (reason: PerpEndReason) => string {
  const { t } = useTranslation();
  return (reason) => t(END_KEYS[reason]);
}

export function useRefLabel(): (ref: PerpTriggerRef) => string {
  const { t } = useTranslation();
  return (ref) => t(REF_KEYS[ref]);
}

/** "BTC/USDT" from the market list, or the symbol as it is when the market is unknown. */
export function pairLabel(symbol: string, markets: readonly PerpMarket[] | undefined): string {
  const market = markets?.find((each) => each.symbol === symbol);
  return market ? `${market.base}/${market.quote}` : symbol;
}

/** Buy / sell or long / short in words, in the user's up or down colour (the word says it too). */
export function SideTag({ side, testId }: { side: keyof typeof SIDE_KEYS; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`perp-side-tag is-${side}`} data-testid={testId} data-side={side}>
      {t(SIDE_KEYS[side])}
    </span>
  );
}

export function StatusTag({ status, testId }: { status: PerpOrderStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`perp-status is-${status}`} data-testid={testId} data-status={status}>
      {t(STATUS_KEYS[status])}
    </span>
  );
}

/** "Mark price ≥ 63,000.0": the reference, the sign held to the price by a no-break space. */
export function useTriggerText(): (
  order: Pick<PerpOrder, 'trigger_condition' | 'trigger_price' | 'trigger_ref'>,
  decimals: number,
) => string | null {
  const format = useFormatDecimal();
  const refLabel = useRefLabel();
  return (order, decimals) => {
    if (!order.trigger_condition || !order.trigger_price) return null;
    const sign = order.trigger_condition === 'gte' ? '≥' : '≤';
    return `${refLabel(order.trigger_ref ?? 'last')} ${sign}\u00a0${format(order.trigger_price, decimals)}`;
  };
}
