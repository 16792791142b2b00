import { randomBytes } from 'node:crypto';
import { fromAtoms } from '@bourse/shared';
import type { ContentService } from './modules/content/service.ts';
import { demoDeliveryConfig } from './modules/delivery/config.ts';
import type { DeliveryService } from './modules/delivery/service.ts';
import type { IdentityService } from './modules/identity/service.ts';
import type { LaunchpadService } from './modules/launchpad/service.ts';
import type { Listings, MarketsService } from './modules/markets/service.ts';
import type { MiningService } from './modules/mining/service.ts';
import { demoBotSetup } from './modules/mm/config.ts';
import type { MarketMakerService } from './modules/mm/service.ts';
import type { PerpService } from './modules/perpetual/service.ts';
import type { ReservesService } from './modules/reserves/service.ts';
import type { SettingsService } from './modules/settings/service.ts';
import { demoSpotMarkets } from './modules/spot/config.ts';
import type { SpotService } from './modules/spot/service.ts';
import type { UsersService } from './modules/users/service.ts';
import { DEMO_WALLET_CONFIG } from './modules/wallet/config.ts';
import type { WalletService } from './modules/wallet/service.ts';
import type { Clock } from './platform/clock.ts';
import { hashPassword } from './platform/crypto.ts';
import type { Db } from './platform/db.ts';

/**
 * Demo accounts created on the first start when DEMO is on (README lists them). `demo2` has a
 * verified identity, so it has trial money; `demo` is left unverified, to try the verification and
 * see that trial money waits for it (docs/trial-money.md).
 */
export const DEMO_USERS = [
  { username: 'demo', password: 'demo1234', inviteCode: 'DEMO2026', isVerified: false },
  { username: 'demo2', password: 'demo1234', inviteCode: 'DEMO2027', isVerified: true },
] as const;

/** Demo coins and markets (USDT-quoted), in display order. */
export const DEMO_LISTINGS: Listings = {
  coins: [
    { symbol: 'USDT', name: 'Tether USD', displayDecimals: 8 },
    { symbol: 'BTC', name: 'Bitcoin', displayDecimals: 8 },
    { symbol: 'ETH', name: 'Ethereum', displayDecimals: 8 },
    { symbol: 'SOL', name: 'Solana', displayDecimals: 8 },
    { symbol: 'XRP', name: 'XRP', displayDecimals: 8 },
    { symbol: 'DOGE', name: 'Dogecoin', displayDecimals: 8 },
    { symbol: 'LTC', name: 'Litecoin', displayDecimals: 8 },
    { symbol: 'BNB', name: 'BNB', displayDecimals: 8 },
    { symbol: 'TRX', name: 'TRON', displayDecimals: 8 },
  ],
  markets: [
    { symbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', priceDecimals: 2 },
    { symbol: 'ETHUSDT', base: 'ETH', quote: 'USDT', priceDecimals: 2 },
    { symbol: 'SOLUSDT', base: 'SOL', quote: 'USDT', priceDecimals: 3 },
    { symbol: 'XRPUSDT', base: 'XRP', quote: 'USDT', priceDecimals: 4 },
    { symbol: 'DOGEUSDT', base: 'DOGE', quote: 'USDT', priceDecimals: 5 },
    { symbol: 'LTCUSDT', base: 'LTC', quote: 'USDT', priceDecimals: 2 },
    { symbol: 'BNBUSDT', base: 'BNB', quote: 'USDT', priceDecimals: 2 },
    { symbol: 'TRXUSDT', base: 'TRX', quote: 'USDT', priceDecimals: 5 },
  ],
};

/**
 * Everything a demo start adds, through the owning modules' services: coins, markets and the
 * demo accounts with their money (`seedDemoData`), the launchpad's subscribers and projects, the
 * mining products, a first reserves snapshot and the demo content. Each step adds only what is
 * missing, so it runs on every start; nodes starting at once run it one after another (app.ts
 * holds the store-wide start lock around it). Returns true when this start created the accounts.
 */
export async function seedDemo(
  deps: Parameters<typeof seedDemoData>[0] & {
    launchpad: LaunchpadService;
    mining: MiningService;
    reserves: ReservesService;
    content: ContentService;
    perpetual: PerpService;
  },
): Promise<boolean> {
  const { db, clock, users, wallet, launchpad, mining, reserves, content, perpetual } = deps;
  const seeded = await seedDemoData(deps);
  await perpetual.seedDemo();
  // why: before the demo's first reserves snapshot, so the snapshot covers the launchpad's money too.
  await launchpad.seedDemo(await seedDemoCrowd({ db, users, wallet }));
  await mining.seedDemo();
  // why: a demo shows a snapshot and a proof at once, after its money is credited.
  if ((await reserves.headers(1)).length === 0) {
    const now = clock.now();
    await reserves.takeDemoSnapshot(now - (now % 1000));
  }
  // why: the demo's own customers have accepted the demo terms, so they trade at once.
  const demoUsers = await Promise.all(DEMO_USERS.map((u) => users.findLoginCandidate(u.username)));
  // why: the demo's About page claims BTC its proof of reserves covers, never more.
  const [header] = await reserves.headers(1);
  const reserveBtc = demoReserveClaim(header?.reserve_totals.BTC);
  await content.seedDemo(
    demoUsers.flatMap((u) => (u ? [u.id] : [])),
    { reserveBtc },
  );
  return seeded;
}

/**
 * The demo's reserve claim, from the BTC its first published snapshot's reserves hold (atoms):
 * four fifths of it in whole BTC ('' when that is none). why: the demo's reserves are simulated at
 * 105 % of the users' BTC, which fees paid in BTC lower day by day; the headroom keeps each day's
 * snapshot covering the claim, and the server withholds it if one ever does not.
 */
export function demoReserveClaim(atoms: string | undefined): string {
  const shown = fromAtoms((BigInt(atoms ?? '0') * 4n) / 5n, 0);
  return shown === '0' ? '' : shown;
}

const SEEDED_KEY = 'demo_seeded';
const MONEY_SEEDED_KEY = 'demo_money_seeded';

/**
 * Lists the demo coins and markets where missing; seeds demo accounts once, through the owning modules' services, in one transaction; the
 * `demo_seeded` setting records that it ran. Returns true when it seeded.
 */
async function seedDemoData(deps: {
  db: Db;
  clock: Clock;
  users: UsersService;
  settings: SettingsService;
  markets: MarketsService;
  wallet: WalletService;
  delivery: DeliveryService;
  identity: IdentityService;
  spot: SpotService;
  marketMaker: MarketMakerService;
}): Promise<boolean> {
  const { db, clock, users, settings, markets, wallet, delivery, spot, marketMaker } = deps;
  // why: on every start, not once: listings already there are kept as they are, and a store
  // seeded before coins and markets were tables gets them too.
  await db.transaction().execute(async (trx) => {
    await markets.addListings(trx, DEMO_LISTINGS);
    await wallet.addMissingConfig(trx, DEMO_WALLET_CONFIG);
    await delivery.addMissingConfig(trx, demoDeliveryConfig(DEMO_LISTINGS.markets.map((m) => m.symbol)));
    await spot.addMissingMarkets(trx, demoSpotMarkets(DEMO_LISTINGS.markets));
  });
  // why: on every start too: the bots' accounts, funding and settings are added where missing.
  await marketMaker.addDemoSetup(demoBotSetup(DEMO_LISTINGS.markets));
  if (await settings.get(SEEDED_KEY)) {
    await seedDemoMoney(deps);
    await seedDemoTrial(deps);
    return false;
  }
  const hashes = await Promise.all(DEMO_USERS.map((u) => hashPassword(u.password)));
  await db.transaction().execute(async (trx) => {
    if (await settings.get(SEEDED_KEY, trx)) return;
    let referrer: string | undefined;
    for (const [i, user] of DEMO_USERS.entries()) {
      await users.createUser(trx, {
        account: user.username,
        isPhone: false,
        passwordHash: hashes[i]!,
        inviteCode: user.inviteCode,
        invitedBy: referrer,
        ip: '127.0.0.1',
      });
      referrer ??= user.inviteCode;
    }
    await settings.set(trx, SEEDED_KEY, String(clock.now()));
  });
  await seedDemoMoney(deps);
  await seedDemoTrial(deps);
  return true;
}

/**
 * Approves the verified demo accounts' own (made-up) identities, visibly: an approved
 * verification and its audit record, so they get the sign-up trial grants the way any account does
 * once verified (docs/trial-money.md). Each has a document of its own; a plan once granted is
 * never again.
 */
async function seedDemoTrial(deps: {
  db: Db;
  users: UsersService;
  identity: IdentityService;
}): Promise<void> {
  const { db, users, identity } = deps;
  const accounts = await Promise.all(DEMO_USERS.map((user) => users.findLoginCandidate(user.username)));
  await db.transaction().execute(async (trx) => {
    for (const [i, account] of accounts.entries()) {
      if (!account || !DEMO_USERS[i]?.isVerified) continue;
      await identity.approveDemoIdentity(trx, {
        userId: account.id,
        realName: `Demo Customer ${i + 1}`,
        country: 'JP',
        mobile: `+8190000000${i + 1}`,
        documentNumber: `DEMO${String(i + 1).padStart(6, '0')}`,
      });
    }
  });
}

/**
 * Credits the demo accounts' starting balances once (a visible `demo.credit` entry from the `demo`
 * system account), also on a store seeded before the wallet existed.
 */
async function seedDemoMoney(deps: {
  db: Db;
  clock: Clock;
  users: UsersService;
  settings: SettingsService;
  wallet: WalletService;
}): Promise<void> {
  const { db, clock, users, settings, wallet } = deps;
  if (await settings.get(MONEY_SEEDED_KEY)) return;
  // why: looked up before the transaction: on SQLite a read outside it would wait for its lock.
  const accounts = await Promise.all(DEMO_USERS.map((user) => users.findLoginCandidate(user.username)));
  await db.transaction().execute(async (trx) => {
    if (await settings.get(MONEY_SEEDED_KEY, trx)) return;
    for (const account of accounts) {
      if (account) await wallet.creditDemo(trx, account.id);
    }
    await settings.set(trx, MONEY_SEEDED_KEY, String(clock.now()));
  });
}

/** The demo's launchpad subscribers: accounts of their own, so the demo users' balances stay as seeded. */
const DEMO_CROWD = ['lp_demo_a', 'lp_demo_b'] as const;

/**
 * Creates the demo's launchpad subscribers where missing (platform-owned, demo money, a password
 * nobody knows) and answers their ids; the launchpad's demo projects take their subscriptions.
 */
async function seedDemoCrowd(deps: {
  db: Db;
  users: UsersService;
  wallet: WalletService;
}): Promise<bigint[]> {
  const { db, users, wallet } = deps;
  const ids: bigint[] = [];
  for (const username of DEMO_CROWD) {
    const existing = await users.findLoginCandidate(username);
    if (existing) {
      ids.push(existing.id);
      continue;
    }
    const passwordHash = await hashPassword(randomBytes(24).toString('base64url'));
    ids.push(
      await db.transaction().execute(async (trx) => {
        const id = await users.createUser(trx, {
          account: username,
          isPhone: false,
          passwordHash,
          ip: '127.0.0.1',
          platformOwned: true,
        });
        await wallet.creditDemo(trx, id);
        return id;
      }),
    );
  }
  return ids;
}
