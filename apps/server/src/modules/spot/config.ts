import { toAtoms } from '@bourse/shared';
import type { SpotMarketSettings } from './service.ts';

const STEPS: Record<string, { tick: string; lot: string; qtyDecimals: number }> = {
  BTC: { tick: '0.01', lot: '0.00001', qtyDecimals: 5 },
  ETH: { tick: '0.01', lot: '0.0001', qtyDecimals: 4 },
  SOL: { tick: '0.001', lot: '0.001', qtyDecimals: 3 },
  XRP: { tick: '0.0001', lot: '0.1', qtyDecimals: 1 },
  DOGE: { tick: '0.00001', lot: '1', qtyDecimals: 0 },
  LTC: { tick: '0.01', lot: '0.001', qtyDecimals: 3 },
  BNB: { tick: '0.01', lot: '0.001', qtyDecimals: 3 },
  TRX: { tick: '0.00001', lot: '1', qtyDecimals: 0 },
};

/**
 * Spot markets for the demo's USDT markets: 0.1 % maker and taker fees, 5 USDT minimum, limit
 * prices within 10 % of the index. Price steps follow the markets' price decimals.
 */
export function demoSpotMarkets(
  markets: readonly { symbol: string; base: string; quote: string; priceDecimals: number }[],
): SpotMarketSettings[] {
  return markets.flatMap((market) => {
    const steps = STEPS[market.base];
    if (!steps) return [];
    return [
      {
        symbol: market.symbol,
        base: market.base,
        quote: market.quote,
        tickSize: toAtoms(steps.tick),
        lotSize: toAtoms(steps.lot),
        minNotional: toAtoms('5'),
        makerFeeBps: 10n,
        takerFeeBps: 10n,
        bandBps: 1000n,
        priceDecimals: market.priceDecimals,
        qtyDecimals: steps.qtyDecimals,
        status: 'open' as const,
      },
    ];
  });
}
