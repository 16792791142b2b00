import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db.ts';
import type { MiningActor, ProductTerms } from './terms.ts';

/** The staff use cases the demo seeding goes through. */
interface MiningStaffUseCases {
  createProduct(staff: MiningActor, terms: ProductTerms): Promise<bigint>;
  setStatus(staff: MiningActor, id: bigint, status: 'normal' | 'paused'): Promise<void>;
  fundPool(staff: MiningActor, coin: string, amount: bigint, key: string): Promise<void>;
}

const DEMO_SEEDED = 'mining.demo_seeded';

/**
 * Demo mode, once: a sole machine with constant output (BTC), a shared machine paid by output
 * value (LTC), and each output coin's pool funded from the treasury for months of output, through
 * the same staff use cases the back office calls (as the system, with no name).
 */
export async function seedMiningDemo(
  mining: MiningStaffUseCases,
  deps: {
    db: Db;
    clock: Clock;
    settings: {
      get(key: string, db?: Db): Promise<string | undefined>;
      set(trx: Db, key: string, value: string): Promise<void>;
    };
  },
): Promise<boolean> {
  const { settings, db, clock } = deps;
  if (await settings.get(DEMO_SEEDED)) return false;
  const demo = { staffId: 0n, actor: 'system:demo', ip: '' };
  const usdt = (cents: number) => BigInt(cents) * 1_000_000n;
  const sole = await mining.createProduct(demo, {
    name: 'Antminer S19 XP',
    type: 'sole',
    feeHashrate: usdt(32_000),
    feeElectricityDay: usdt(540),
    feeManagement: usdt(1_800),
    coin: 'BTC',
    incomeType: 'constant',
    dailyQ: 20_000n,
    dailyValue: 0n,
    days: 30,
    capacity: 50,
    minShareBp: 10_000,
    stepBp: 10_000,
    holdCoin: 'USDT',
    minHold: 0n,
    minReferrals: 0,
    maxOrders: 1,
    releaseDelayDays: 1,
  });
  const shared = await mining.createProduct(demo, {
    name: 'Antminer L7 shared',
    type: 'shared',
    feeHashrate: usdt(600_000),
    feeElectricityDay: usdt(6_000),
    feeManagement: usdt(40_000),
    coin: 'LTC',
    incomeType: 'value',
    dailyQ: 0n,
    dailyValue: usdt(16_000),
    days: 60,
    capacity: 20,
    minShareBp: 1000,
    stepBp: 500,
    holdCoin: 'USDT',
    minHold: 0n,
    minReferrals: 0,
    maxOrders: 1,
    releaseDelayDays: 1,
  });
  for (const id of [sole, shared]) await mining.setStatus(demo, id, 'normal');
  await mining.fundPool(demo, 'BTC', 50_000_000n, 'demo-btc');
  await mining.fundPool(demo, 'LTC', 2_000n * 100_000_000n, 'demo-ltc');
  await db.transaction().execute((trx) => settings.set(trx, DEMO_SEEDED, String(clock.now())));
  return true;
}
