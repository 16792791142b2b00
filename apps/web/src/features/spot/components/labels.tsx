import { truncateDecimal } from '@bourse/shared';
import type { OrderSide, SpotMarket, SpotOrder, SpotOrderStatus } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';

const SIDE_KEYS: Record<OrderSide, string> = { buy: 'spot.side.buy', sell: 'spot.side.sell' };
const TYPE_KEYS: Record<SpotOrder['type'], string> = { limit: 'spot.type.limit', market: 'spot.type.market' };
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
  const { i18n } = useTranslation();
  const formatter = new Intl.NumberFormat(i18n.language, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  // why: the value is already cut to two decimals, so Intl only places separator and sign.
  return (percent) => formatter.format(Number(truncateDecimal(percent, 2)) / 100);
}
