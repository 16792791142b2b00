import type { OrderSide, SpotMarket, SpotOrder, SpotOrderStatus, TriggerCondition } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { useFormatPercent } from '../../../shared/format/format-percent.ts';

const SIDE_KEYS: Record<OrderSide, string> = { buy: 'spot.side.buy', sell: 'spot.side.sell' };
const TYPE_KEYS: Record<SpotOrder['type'], string> = {
  limit: 'spot.type.limit',
  market: 'spot.type.market',
  stop_limit: 'spot.type.stop_limit',
  stop_market: 'spot.type.stop_market',
  take_profit: 'spot.type.take_profit',
};
const STATUS_KEYS: Record<SpotOrderStatus, string> = {
  entrusted: 'spot.status.entrusted',
  completed: 'spot.status.completed',
  revoked: 'spot.status.revoked',
};

/** "BTC/USDT" from the market list, or the symbol as it is when the market is unknown. */
export function pairLabel(symbol: string, markets: readonly SpotMarket[] | undefined): string {
  const market = markets?.find((each) => each.symbol === symbol);
  return market ? `${market.base}/${market.quote}` : symbol;
}

/** Buy or sell in words, in the user's up (buy) or down (sell) colour. */
export function SideTag({ side, testId }: { side: OrderSide; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`side-tag is-${side}`} data-testid={testId} data-side={side}>
      {t(SIDE_KEYS[side])}
    </span>
  );
}

export function useTypeLabel(): (type: SpotOrder['type']) => string {
  const { t } = useTranslation();
  return (type) => t(TYPE_KEYS[type]);
}

const TRIGGER_STATE_KEYS = {
  waiting: 'spot.trigger.waiting',
  fired: 'spot.trigger.fired',
  notFired: 'spot.trigger.notFired',
} as const;

const CONDITION_SIGNS: Record<TriggerCondition, string> = { gte: '≥', lte: '≤' };

/**
 * A trigger's level as a sentence quotes it: `≥ 95,000.00`, the sign held to the price by a
 * no-break space so a line never ends on the sign.
 */
export function useTriggerLevel(): (condition: TriggerCondition, price: string, decimals: number) => string {
  const formatDecimal = useFormatDecimal();
  return (condition, price, decimals) =>
    `${CONDITION_SIGNS[condition]}\u00a0${formatDecimal(price, decimals)}`;
}

/**
 * The spec's "trigger condition" of an order ("Last price ≥ 95,000.00") and whether it has fired:
 * waiting while open, triggered once it fired, not triggered when revoked before. Nothing for an
 * order without a trigger.
 */
export function TriggerConditionText({
  order,
  decimals,
  testId,
}: {
  order: Pick<SpotOrder, 'trigger_condition' | 'trigger_price' | 'triggered_at' | 'status'>;
  decimals: number;
  testId?: string;
}) {
  const { t } = useTranslation();
  const triggerLevel = useTriggerLevel();
  if (!order.trigger_condition || !order.trigger_price) return null;
  const state = order.triggered_at !== null ? 'fired' : order.status === 'entrusted' ? 'waiting' : 'notFired';
  return (
    <span className="trigger-condition" data-testid={testId} data-condition={order.trigger_condition}>
      <span className="num">
        {t('spot.trigger.condition', {
          level: triggerLevel(order.trigger_condition, order.trigger_price, decimals),
        })}
      </span>
      <span className={`trigger-state is-${state}`} data-state={state}>
        {t(TRIGGER_STATE_KEYS[state])}
      </span>
    </span>
  );
}

/** The spec's order states: entrusted, completed, revoked. */
export function OrderStatusTag({ status, testId }: { status: SpotOrderStatus; testId?: string }) {
  const { t } = useTranslation();
  return (
    <span className={`order-status is-${status}`} data-testid={testId} data-status={status}>
      {t(STATUS_KEYS[status])}
    </span>
  );
}

/** A percentage string with two decimals (`"37.50"`) written the locale's way (`37,50 %`, `%37,50`). */
export function usePercent(): (percent: string) => string {
  const formatPercent = useFormatPercent();
  return (percent) => formatPercent.percent(percent);
}
