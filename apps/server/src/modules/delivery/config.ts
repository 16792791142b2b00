import { ATOMS_PER_UNIT } from '@bourse/shared';
import type { DeliveryConfig, ProductSettings } from './service.ts';

const usdt = (units: number) => BigInt(units) * ATOMS_PER_UNIT;

/** The demo's periods: 1, 3, 5 and 15 minutes at 0.80 to 0.95, 10 to 10,000 USDT. */
const DEMO_PERIODS: ProductSettings['periods'] = [
  { seconds: 60, ratioBps: 8000n, min: usdt(10), max: usdt(10_000) },
  { seconds: 180, ratioBps: 8500n, min: usdt(10), max: usdt(10_000) },
  { seconds: 300, ratioBps: 9000n, min: usdt(10), max: usdt(10_000) },
  { seconds: 900, ratioBps: 9500n, min: usdt(10), max: usdt(10_000) },
];

/** Demo products for every demo market, and a sign-up grant of 1,000 USDT for 7 days. */
export function demoDeliveryConfig(symbols: readonly string[]): DeliveryConfig {
  return {
    products: symbols.map((symbol) => ({
      symbol,
      status: 'open' as const,
      maxExposure: usdt(100_000),
      periods: DEMO_PERIODS,
    })),
    plans: [
      {
        name: 'signup',
        amount: usdt(1000),
        validityDays: 7,
        profitCapPercent: 100,
        trigger: 'signup',
        active: true,
      },
    ],
  };
}
