import { defaultTiers, demoSpec } from '@bourse/perp';
import { toAtoms } from '@bourse/shared';
import { tiersToJson } from './records.ts';
import type { NewPerpMarket } from './repository.ts';

/** The demo's perpetual markets: steps per base coin (lot × tick must be whole atoms). */
const STEPS: Record<string, { tick: string; lot: string; priceDecimals: number; qtyDecimals: number }> = {
  BTC: { tick: '0.1', lot: '0.001', priceDecimals: 1, qtyDecimals: 3 },
  ETH: { tick: '0.01', lot: '0.01', priceDecimals: 2, qtyDecimals: 2 },
};

/** What the demo's insurance fund of each market starts with (USDT). */
export const DEMO_INSURANCE = toAtoms('100000');

/**
 * BTC and ETH USDT-margined perpetuals with the parameters of perpetual.md §5: maker 0.02 %,
 * taker 0.05 %, band 5 %, the five tiers up to 5x, funding every 8 hours capped at 1.5 %.
 */
export function demoPerpMarkets(now: bigint): NewPerpMarket[] {
  return Object.entries(STEPS).map(([base, steps]) => {
    const symbol = `${base}USDT`;
    const spec = demoSpec(symbol, toAtoms(steps.tick), toAtoms(steps.lot));
    return {
      symbol,
      base,
      quote: 'USDT',
      index_symbol: symbol,
      tick_size: spec.tickAtoms,
      lot_size: spec.lotAtoms,
      price_decimals: BigInt(steps.priceDecimals),
      qty_decimals: BigInt(steps.qtyDecimals),
      maker_rate: spec.makerRate,
      taker_rate: spec.takerRate,
      band_rate: spec.bandRate,
      tiers: tiersToJson(defaultTiers()),
      max_leverage: BigInt(spec.maxLeverage),
      funding_interval_ms: BigInt(spec.fundingIntervalMs),
      interest_rate: spec.interestRate,
      funding_clamp: spec.fundingClamp,
      funding_cap: spec.fundingCap,
      impact_notional: spec.impactNotional,
      mark_clamp: spec.markClamp,
      status: 'open' as const,
      updated_at: now,
    };
  });
}
