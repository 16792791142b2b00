// A year of an operator's data, written straight into the real schema of a store the platform
// itself created (migrated, with its demo data), so the list pages, the ledger check and the start
// can be measured on the store an operator has after a year, not on the first day's. The money
// is consistent as the platform's own would be: every entry balances per asset, every posting's
// `balance_after` is its account's running total, no user balance goes negative, and each user's
// `frozen` balance is exactly what their resting orders, open contracts and withdrawals in review
// hold. `npm run seed:year` runs it; the tests and `bench:data` call `seedYear`.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { SpotCandles } from '../../apps/server/src/modules/spot/candles.ts';
import { hashPassword } from '../../apps/server/src/platform/crypto.ts';
import { openDb } from '../../apps/server/src/platform/db.ts';
import { Agenda, randomFrom, SeedBooks, type SeedContext } from './seed-books.ts';
import { type Market, PriceModel } from './seed-prices.ts';
import { openSeedWriter, type SeedWriter } from './seed-store.ts';
import { DeliverySeeder, type Period, SpotSeeder } from './seed-trading.ts';

/** The one busy customer of the year (its bills, trades and contracts are the deep pages). */
export const ACTIVE_ACCOUNT = { username: 'yearactive', password: 'year-active-1234' } as const;
/** The back office's first owner on a seeded store (the platform creates it at the first start). */
export const SEED_STAFF = { username: 'admin', password: 'year-admin-1234' } as const;
/** Every other seeded customer's password (they share one hash: hashing 200,000 would take hours). */
const USER_PASSWORD = 'year-user-1234';
/** What the seed writes into the data folder once it has finished: its figures, read by `bench:data`. */
export const SEED_REPORT_FILE = 'seed-year.json';

/** The year at full scale (`scale` 1); every figure is multiplied by the scale. */
const FULL = {
  users: 200_000,
  trades: 1_000_000,
  revoked: 100_000,
  resting: 100_000,
  contracts: 500_000,
  deposits: 400_000,
  withdrawals: 100_000,
  audit: 1_000_000,
  sessions: 600_000,
  loginLogs: 600_000,
  activeOrders: 100_000,
  activeContracts: 100_000,
};

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const ATOMS = 100_000_000n;
const STAFF = 'staff:1';

export interface SeedYearOptions {
  scale: number;
  dataDir: string;
  databaseUrl?: string;
  log?: (line: string) => void;
}

export interface SeedYearReport {
  scale: number;
  seconds: number;
  activeUserId: string;
  activeUsername: string;
  counts: Record<string, number>;
}

/** Builds the store (it must not exist yet), seeds the year into it and answers what it wrote. */
export async function seedYear(options: SeedYearOptions): Promise<SeedYearReport> {
  const log = options.log ?? (() => {});
  const started = Date.now();
  const { scale, dataDir, databaseUrl } = options;
  if (!(scale > 0 && scale <= 1)) throw new Error(`scale must be above 0 and at most 1, got ${scale}`);
  if (!databaseUrl && fs.existsSync(path.join(dataDir, 'bourse.sqlite')))
    throw new Error(`${dataDir} already holds a store; seed:year builds a new one`);
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ found: string | null }>(`select to_regclass('users') as found`);
    await client.end();
    if (rows[0]?.found) throw new Error('the database already holds a store; seed:year needs an empty one');
  }
  fs.mkdirSync(dataDir, { recursive: true });
  // why: the platform creates its own store (every migration, the demo's markets, coins, networks,
  // accounts and staff owner), so the seed writes into exactly the schema a start would find.
  const app = await buildApp({
    config: loadConfig({
      ...process.env,
      DEMO: 'on',
      CAPTCHA: 'off',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      ADMIN_USER: SEED_STAFF.username,
      ADMIN_PASSWORD: SEED_STAFF.password,
    }),
    startFeed: false,
    startMarketMaker: false,
    logger: false,
  });
  await app.close();
  log(`store created by the platform in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const writer = await openSeedWriter({ dataDir, databaseUrl });
  try {
    const seeder = await Seeder.open(writer, scale, log);
    const counts = await seeder.run();
    const writing = Date.now();
    await writer.setBalances(seeder.books.balances());
    await writer.finish(log);
    log(`indexes, balances and statistics in ${((Date.now() - writing) / 1000).toFixed(1)} s`);
    await foldSpotCandles({ dataDir, databaseUrl }, log);
    const report: SeedYearReport = {
      scale,
      seconds: (Date.now() - started) / 1000,
      activeUserId: String(seeder.activeUser),
      activeUsername: ACTIVE_ACCOUNT.username,
      counts,
    };
    fs.writeFileSync(path.join(dataDir, SEED_REPORT_FILE), `${JSON.stringify(report, null, 2)}\n`);
    return report;
  } finally {
    await writer.close();
  }
}

/**
 * Folds the year's spot trades into the markets' stored candles, as the platform's job does while
 * they trade (through the platform's own fold).
 */
export async function foldSpotCandles(
  where: { dataDir: string; databaseUrl?: string },
  log: (line: string) => void,
): Promise<void> {
  const started = Date.now();
  const store = openDb(where);
  try {
    const candles = new SpotCandles({ db: store.db, clock: { now: () => Date.now() } });
    let folded = 0;
    for (const { symbol } of await store.db.selectFrom('spot_markets').select('symbol').execute())
      folded += await candles.foldAll(symbol);
    log(`spot candles of ${folded} trades in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await store.close();
  }
}

/** One draw of `quota` things still to place among `left` chances: the draws end exactly on the quota. */
const take = (random: () => number, quota: number, left: number) => quota > 0 && random() * left < quota;

interface Network {
  network: string;
  address: string;
  fee: bigint;
  min: bigint;
}

class Seeder implements SeedContext {
  readonly books: SeedBooks;
  readonly activeUser: number;
  readonly writer: SeedWriter;
  readonly #q: typeof FULL;
  readonly #r = randomFrom(20261201);
  readonly agenda = new Agenda();
  readonly #log: (line: string) => void;
  readonly prices: PriceModel;
  readonly #markets: Market[];
  readonly #periods: Period[];
  readonly #networks: Map<string, Network>;
  readonly now = Date.now();
  readonly #start = this.now - YEAR;
  readonly #firstUser: number;
  readonly #ids: Record<string, number>;
  readonly #spot: SpotSeeder;
  readonly #delivery: DeliverySeeder;
  readonly #counts: Record<string, number> = {};
  /** Per coin, customers who have held some: sellers are drawn from them, as on a real venue. */
  readonly #holders = new Map<string, number[]>();

  private constructor(init: {
    writer: SeedWriter;
    scale: number;
    log: (line: string) => void;
    ids: Record<string, number>;
    markets: Market[];
    periods: Period[];
    networks: Map<string, Network>;
  }) {
    this.writer = init.writer;
    this.#log = init.log;
    this.#q = Object.fromEntries(
      Object.entries(FULL).map(([k, v]) => [k, Math.max(k === 'users' ? 10 : 2, Math.round(v * init.scale))]),
    ) as typeof FULL;
    this.#ids = init.ids;
    this.#markets = init.markets;
    this.#periods = init.periods;
    this.#networks = init.networks;
    this.prices = new PriceModel(this.now);
    this.#firstUser = init.ids.users!;
    this.activeUser = this.#firstUser;
    this.books = new SeedBooks(init.writer, {
      account: init.ids.ledger_accounts!,
      entry: init.ids.journal_entries!,
      posting: init.ids.postings!,
    });
    this.books.watched.set(this.activeUser, 0);
    this.#spot = new SpotSeeder(this, init.markets);
    this.#delivery = new DeliverySeeder(this, init.periods);
  }

  static async open(writer: SeedWriter, scale: number, log: (line: string) => void): Promise<Seeder> {
    const ids: Record<string, number> = {};
    for (const table of [
      'users',
      'sessions',
      'login_logs',
      'ledger_accounts',
      'journal_entries',
      'postings',
      'spot_orders',
      'spot_trades',
      'delivery_contracts',
      'deposits',
      'withdrawals',
      'audit_log',
    ]) {
      const [row] = await writer.select(`select coalesce(max(id), 0) as id from ${table}`);
      ids[table] = Number(row!.id) + 1;
    }
    const markets = (
      await writer.select(
        'select symbol, base, quote, tick_size, lot_size, min_notional, maker_fee_bps, taker_fee_bps, seq from spot_markets order by symbol',
      )
    ).map((r) => ({
      symbol: r.symbol!,
      base: r.base!,
      quote: r.quote!,
      tick: BigInt(r.tick_size!),
      lot: BigInt(r.lot_size!),
      minNotional: BigInt(r.min_notional!),
      makerBps: BigInt(r.maker_fee_bps!),
      takerBps: BigInt(r.taker_fee_bps!),
      seq: Number(r.seq),
    }));
    if (markets.length === 0) throw new Error('the store has no spot markets (the demo seed makes them)');
    const periods = (
      await writer.select(
        'select symbol, seconds, ratio_bps, min_amount from delivery_periods order by symbol, seconds',
      )
    ).map((r) => ({
      symbol: r.symbol!,
      seconds: Number(r.seconds),
      ratioBps: BigInt(r.ratio_bps!),
      min: BigInt(r.min_amount!),
    }));
    const networks = new Map<string, Network>();
    for (const r of await writer.select(
      'select coin, network, deposit_address, withdraw_fee, min_withdraw from wallet_networks order by id',
    )) {
      if (networks.has(r.coin!)) continue;
      networks.set(r.coin!, {
        network: r.network!,
        address: r.deposit_address ?? '',
        fee: BigInt(r.withdraw_fee!),
        min: BigInt(r.min_withdraw!),
      });
    }
    const seeder = new Seeder({ writer, scale, log, ids, markets, periods, networks });
    for (const r of await writer.select('select id, owner, asset, kind, balance from ledger_accounts'))
      seeder.books.load(r.owner!, r.asset!, r.kind!, Number(r.id), BigInt(r.balance!));
    return seeder;
  }

  next(table: string): number {
    this.#counts[table] = (this.#counts[table] ?? 0) + 1;
    return this.#ids[table]!++;
  }

  nextId(table: string): number {
    return this.#ids[table]!++;
  }

  count(table: string): void {
    this.#counts[table] = (this.#counts[table] ?? 0) + 1;
  }

  random(): number {
    return this.#r();
  }

  int(low: number, high: number): number {
    return low + Math.floor(this.#r() * (high - low + 1));
  }

  /** A customer who had registered by `at`, other than `not`. */
  user(at: number, not = 0): number {
    const registered = Math.floor((this.#q.users * (at - this.#start)) / (0.9 * YEAR)) + 1;
    const count = Math.min(this.#q.users, Math.max(3, registered));
    for (;;) {
      const id = this.#firstUser + Math.floor(this.#r() * count);
      if (id !== not && id !== this.activeUser) return id;
    }
  }

  /** A customer holding at least `need` of `asset` when one is found quickly, else any other. */
  seller(asset: string, need: bigint, at: number, not = 0): number {
    const holders = this.#holders.get(asset) ?? [];
    for (let tries = 0; tries < 4 && holders.length > 0; tries++) {
      const id = holders[Math.floor(this.#r() * holders.length)]!;
      if (id !== not && id !== this.activeUser && this.books.balance(id, asset) >= need) return id;
    }
    return this.user(at, not);
  }

  holds(user: number, asset: string): void {
    if (asset === 'USDT' || this.books.balance(user, asset) !== 0n) return;
    const holders = this.#holders.get(asset) ?? [];
    holders.push(user);
    this.#holders.set(asset, holders);
  }

  async run(): Promise<Record<string, number>> {
    const t0 = Date.now();
    await this.#users();
    const q = this.#q;
    const activeOpen = Math.min(20, Math.max(1, Math.floor(q.activeContracts / 10)));
    let activeResting = Math.max(1, Math.round(q.resting / 100));
    const activeRevoked = Math.max(1, Math.round(q.revoked / 20));
    const left = {
      trades: q.trades,
      revoked: q.revoked,
      contracts: q.contracts - activeOpen,
      // why: most customers' first deposits come when they first need money (`fund`); these are the rest.
      deposits: Math.round(q.deposits * 0.35),
      withdrawals: q.withdrawals,
    };
    const active = {
      trades: Math.max(0, q.activeOrders - activeResting - activeRevoked),
      revoked: activeRevoked,
      contracts: q.activeContracts - activeOpen,
    };
    const total = Object.values(left).reduce((a, b) => a + b, 0);
    const side = {
      audit: q.audit,
      sessions: q.sessions,
      loginLogs: q.loginLogs,
    };
    const end = this.now - 120_000;
    for (let i = 0; i < total; i++) {
      const at = this.#start + Math.floor(((i + 1) * (end - this.#start)) / (total + 1));
      this.agenda.runUntil(at);
      const eventsLeft = total - i;
      let pick = this.#r() * eventsLeft;
      for (const kind of Object.keys(left) as (keyof typeof left)[]) {
        if (pick >= left[kind]) {
          pick -= left[kind];
          continue;
        }
        const mine = kind in active && take(this.#r, active[kind as keyof typeof active], left[kind]);
        if (mine) active[kind as keyof typeof active]--;
        left[kind]--;
        if (kind === 'trades') this.#spot.trade(at, mine);
        else if (kind === 'revoked') this.#spot.revoked(at, mine);
        else if (kind === 'contracts') this.#delivery.contract(at, mine ? this.activeUser : this.user(at));
        else if (kind === 'deposits') this.#deposit(at, this.user(at));
        else this.#withdrawal(at, this.user(at));
        break;
      }
      // why: reviews write audit rows of their own; the staff's other actions make up the rest.
      side.audit = Math.max(
        0,
        q.audit - (this.#counts.audit_log ?? 0) - Math.round((left.deposits + left.withdrawals) * 0.97),
      );
      for (const k of Object.keys(side) as (keyof typeof side)[]) {
        let n = Math.floor(side[k] / eventsLeft) + (take(this.#r, side[k] % eventsLeft, eventsLeft) ? 1 : 0);
        side[k] -= n;
        while (n-- > 0) this.#side(k, at);
      }
      if (i % 2000 === 0) await this.writer.maybeFlush();
      if (i > 0 && i % 200_000 === 0)
        this.#log(
          `  ${i} of ${total} events, ${this.books.postings} postings (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
        );
    }
    // why: every cancellation falls before the year's last minute; what is due later stays open.
    this.agenda.runUntil(this.now - 60_000);
    for (let i = 0; i < q.resting; i++) {
      const at = end - 2 * DAY + Math.floor(((i + 1) * 2 * DAY) / (q.resting + 1));
      this.#spot.resting(at, take(this.#r, activeResting, q.resting - i) && activeResting-- > 0);
      if (i % 2000 === 0) await this.writer.maybeFlush();
    }
    for (let i = 0; i < activeOpen; i++)
      this.#delivery.contract(this.now - 60_000 + i * 1000, this.activeUser, 900);
    // why: whatever was not decided by the end of the year is still open: contracts running,
    // withdrawals in review, deposits confirming; their rows are written as they stand.
    for (const item of this.agenda.pending()) item.open();
    while ((this.#counts.deposits ?? 0) < q.deposits) this.#deposit(end, this.user(end), 'confirming');
    await this.#indexHistory();
    this.#log(`  generated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return {
      ...this.#counts,
      journal_entries: this.books.entries,
      postings: this.books.postings,
      ledger_accounts: this.books.accountsCreated,
      active_postings: this.books.watched.get(this.activeUser) ?? 0,
    };
  }

  async #users(): Promise<void> {
    const shared = await hashPassword(USER_PASSWORD);
    const active = await hashPassword(ACTIVE_ACCOUNT.password);
    const locales = ['ja-JP', 'en-US', 'zh-CN', 'ko-KR', 'vi-VN'];
    for (let i = 0; i < this.#q.users; i++) {
      const id = this.next('users');
      const isActive = id === this.activeUser;
      const name = isActive ? ACTIVE_ACCOUNT.username : `year${id}`;
      const created = this.#start + Math.floor((i * 0.9 * YEAR) / this.#q.users);
      this.writer.add('users', [
        id,
        name,
        name,
        isActive ? active : shared,
        `Y${id.toString(36).toUpperCase()}`,
        `10.${(id >> 16) & 255}.${(id >> 8) & 255}.${id & 255}`,
        created + Math.floor(this.#r() * (this.now - created)),
        '10.0.0.1',
        locales[id % locales.length]!,
        created,
      ]);
      if (i % 2000 === 0) await this.writer.maybeFlush();
    }
  }

  // --- money in and out ------------------------------------------------------------------------

  /** Makes sure `user` holds `need` of `asset`, with a credited deposit when they do not. */
  fund(user: number, asset: string, need: bigint, at: number): void {
    const have = this.books.balance(user, asset);
    if (have >= need) return;
    const usdt = BigInt(this.int(200, 20_000)) * ATOMS;
    const typical = asset === 'USDT' ? usdt : (usdt * ATOMS) / this.prices.atoms(`${asset}USDT`, at);
    this.#deposit(at, user, 'credited', asset, need - have + typical);
  }

  #deposit(
    at: number,
    user: number,
    status: 'credited' | 'confirming' | 'scheduled' = 'scheduled',
    coin?: string,
    amount?: bigint,
  ): void {
    const id = this.next('deposits');
    const asset =
      coin ?? (this.#r() < 0.7 ? 'USDT' : this.#markets[this.int(0, this.#markets.length - 1)]!.base);
    const value =
      amount ??
      (asset === 'USDT'
        ? BigInt(this.int(50, 10_000)) * ATOMS
        : (BigInt(this.int(50, 10_000)) * ATOMS * ATOMS) / this.prices.atoms(`${asset}USDT`, at));
    const net = this.#networks.get(asset) ?? { network: asset, address: '', fee: 0n, min: 0n };
    const row = (state: string, reviewedAt: number | null, credited: bigint, reason = '') => [
      id,
      user,
      asset,
      net.network,
      net.address,
      value,
      credited,
      randomBytes(16).toString('hex'),
      `voucher-${id}.png`,
      state,
      reason,
      reviewedAt === null ? '' : STAFF,
      at - 600_000,
      reviewedAt,
    ];
    const credit = (when: number) => {
      this.holds(user, asset);
      this.books.post({
        type: 'deposit.credit',
        ref: `deposit:${id}`,
        memo: `${asset} ${net.network}`,
        by: STAFF,
        at: when,
        lines: [
          { owner: 'external_deposits', asset, kind: 'available', amount: -value },
          { owner: user, asset, kind: 'available', amount: value },
        ],
      });
      this.writer.add('deposits', row('credited', when, value));
      this.#audit(when, 'deposit.confirm', `deposit:${id}`);
    };
    if (status === 'credited') credit(at);
    else if (status === 'confirming') this.writer.add('deposits', row('confirming', null, 0n));
    else {
      const review = at + this.int(5, 360) * 60_000;
      this.agenda.add(
        review,
        () => {
          if (this.#r() < 0.03) {
            this.writer.add('deposits', row('rejected', review, 0n, 'voucher unreadable'));
            this.#audit(review, 'deposit.reject', `deposit:${id}`);
          } else credit(review);
        },
        () => this.writer.add('deposits', row('confirming', null, 0n)),
      );
    }
  }

  #withdrawal(at: number, user: number): void {
    const coin = this.#r() < 0.8 ? 'USDT' : this.#markets[this.int(0, this.#markets.length - 1)]!.base;
    const net = this.#networks.get(coin) ?? this.#networks.get('USDT')!;
    const asset = this.#networks.has(coin) ? coin : 'USDT';
    const unit = asset === 'USDT' ? ATOMS : (ATOMS * ATOMS) / this.prices.atoms(`${asset}USDT`, at);
    const amount = net.min + (unit * BigInt(this.int(10, 3000))) / 10n;
    const hold = amount + net.fee;
    this.fund(user, asset, hold, at);
    const id = this.next('withdrawals');
    const ref = `withdrawal:${id}`;
    this.books.post({
      type: 'withdrawal.freeze',
      ref,
      memo: `${asset} ${net.network}`,
      by: `user:${user}`,
      at,
      lines: [
        { owner: user, asset, kind: 'available', amount: -hold },
        { owner: user, asset, kind: 'frozen', amount: hold },
      ],
    });
    const row = (status: string, reviewedAt: number | null, reason = '') => [
      id,
      user,
      asset,
      net.network,
      net.network === 'BANK' ? 'bank' : 'address',
      `dest-${user}-${asset}`,
      amount,
      net.fee,
      status,
      reason,
      `seed-${id}`,
      reviewedAt === null ? '' : STAFF,
      at,
      reviewedAt,
      reviewedAt === null ? null : reviewedAt + 1000,
    ];
    const review = at + this.int(10, 36 * 60) * 60_000;
    this.agenda.add(
      review,
      () => {
        if (this.#r() < 0.05) {
          this.books.post({
            type: 'withdrawal.reject',
            ref,
            memo: 'address not verified',
            by: STAFF,
            at: review,
            lines: [
              { owner: user, asset, kind: 'frozen', amount: -hold },
              { owner: user, asset, kind: 'available', amount: hold },
            ],
          });
          this.writer.add('withdrawals', row('rejected', review, 'address not verified'));
          this.#audit(review, 'withdrawal.reject', ref);
          return;
        }
        this.books.post({
          type: 'withdrawal.complete',
          ref,
          memo: `${asset} ${net.network}`,
          by: STAFF,
          at: review,
          lines: [
            { owner: user, asset, kind: 'frozen', amount: -hold },
            { owner: 'external_withdrawals', asset, kind: 'available', amount },
            { owner: 'fees', asset, kind: 'available', amount: net.fee },
          ],
        });
        this.writer.add('withdrawals', row('passed', review));
        this.#audit(review, 'withdrawal.approve', ref);
      },
      () => this.writer.add('withdrawals', row('review', null)),
    );
  }

  // --- the rest of the year's rows --------------------------------------------------------------

  #audit(at: number, action: string, target: string): void {
    this.writer.add('audit_log', [this.next('audit_log'), STAFF, action, target, '', '10.0.0.9', at]);
  }

  #side(kind: 'audit' | 'sessions' | 'loginLogs', at: number): void {
    const user = this.user(at);
    if (kind === 'audit') {
      const actions = [
        'support.reply',
        'support.read',
        'identity.approve',
        'staff.logout',
        'spot.market.edit',
      ];
      const action = actions[this.int(0, actions.length - 1)]!;
      this.#audit(at, action, action.startsWith('spot') ? 'BTCUSDT' : `user:${user}`);
    } else if (kind === 'sessions') {
      const used = Math.min(this.now - 1000, at + this.int(0, 3 * 24 * 60) * 60_000);
      this.writer.add('sessions', [
        this.next('sessions'),
        user,
        randomBytes(32).toString('hex'),
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)',
        '10.1.2.3',
        at,
        used,
        used < this.now - 30 * DAY ? used + 3 * DAY : null,
      ]);
    } else {
      const ok = this.#r() < 0.95;
      this.writer.add('login_logs', [
        this.next('login_logs'),
        user,
        `year${user}`,
        ok ? 1 : 0,
        ok ? '' : 'password',
        '10.1.2.3',
        'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)',
        at,
      ]);
    }
  }

  /** 30 days of index ticks (the retention) and a year of index candles, from the same prices. */
  async #indexHistory(): Promise<void> {
    const symbols = [
      ...new Set([...this.#markets.map((m) => m.symbol), ...this.#periods.map((p) => p.symbol)]),
    ];
    const scale = this.#q.trades / FULL.trades;
    const perSymbol = Math.max(100, Math.round(30 * 86_400 * scale));
    const step = Math.floor((30 * DAY) / perSymbol);
    const intervals: [string, number][] = [
      ['1m', 60_000],
      ['5m', 300_000],
      ['15m', 900_000],
      ['1h', 3_600_000],
      ['4h', 14_400_000],
      ['1d', DAY],
    ];
    for (const symbol of symbols) {
      for (let at = this.now - 30 * DAY + step, n = 0; at <= this.now; at += step, n++) {
        this.writer.add('index_ticks', [symbol, at, this.prices.atoms(symbol, at), 'simulated']);
        this.#counts.index_ticks = (this.#counts.index_ticks ?? 0) + 1;
        if (n % 2000 === 0) await this.writer.maybeFlush();
      }
      for (const [name, ms] of intervals) {
        const span = ms >= 3_600_000 ? YEAR : Math.max(DAY, Math.round(YEAR * scale));
        for (let t = Math.floor((this.now - span) / ms) * ms, n = 0; t + ms <= this.now; t += ms, n++) {
          const [o, h, l, c] = this.prices.candle(symbol, t, ms);
          this.writer.add('index_candles', [symbol, name, t, o, h, l, c]);
          this.#counts.index_candles = (this.#counts.index_candles ?? 0) + 1;
          if (n % 2000 === 0) await this.writer.maybeFlush();
        }
      }
    }
    await this.writer.run(
      `delete from index_prices where symbol in (${symbols.map((s) => `'${s}'`).join(', ')})`,
    );
    for (const symbol of symbols)
      await this.writer.run(
        `insert into index_prices (symbol, price, source, updated_at) values ('${symbol}', ${this.prices.atoms(symbol, this.now)}, 'simulated', ${this.now})`,
      );
    for (const [symbol, seq] of this.#spot.sequences)
      await this.writer.run(`update spot_markets set seq = ${seq} where symbol = '${symbol}'`);
  }
}
