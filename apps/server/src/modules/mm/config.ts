import { toAtoms } from '@bourse/shared';
import type { DemoBotSetup, MakerSettings } from './service.ts';

/** Base quantity per level for the demo's coins: about 3,000–5,000 USDT at the feed's start prices. */
const LEVEL_QTY: Record<string, string> = {
  BTC: '0.05',
  ETH: '1',
  SOL: '15',
  XRP: '2500',
  DOGE: '9000',
  LTC: '35',
  BNB: '5',
  TRX: '16000',
};
/** The maker holds this many levels of each coin, and may drift half of it either way. */
const INVENTORY_LEVELS = 400n;
/** Each demo trader starts with this many levels of each coin. */
const TRADER_LEVELS = 20n;

/**
 * The demo's bots: the maker quotes 8 levels a side, 10 bps between its best bid and ask and 5 bps
 * between levels, on every demo spot market; it and the demo traders are funded from `demo`.
 */
export function demoBotSetup(markets: readonly { symbol: string; base: string }[]): DemoBotSetup {
  const quoted = markets.filter((m) => LEVEL_QTY[m.base] !== undefined);
  const settings: MakerSettings[] = quoted.map((m) => {
    const levelQty = toAtoms(LEVEL_QTY[m.base]!);
    return {
      symbol: m.symbol,
      enabled: true,
      levels: 8,
      spreadBps: 10n,
      stepBps: 5n,
      levelQty,
      inventoryTarget: levelQty * INVENTORY_LEVELS,
      maxInventoryDeviation: (levelQty * INVENTORY_LEVELS) / 2n,
    };
  });
  return {
    markets: settings,
    makerFunds: [
      { asset: 'USDT', amount: toAtoms('5000000') },
      ...quoted.map((m) => ({ asset: m.base, amount: toAtoms(LEVEL_QTY[m.base]!) * INVENTORY_LEVELS })),
    ],
    traderFunds: [
      { asset: 'USDT', amount: toAtoms('100000') },
      ...quoted.map((m) => ({ asset: m.base, amount: toAtoms(LEVEL_QTY[m.base]!) * TRADER_LEVELS })),
    ],
  };
}
