import path from 'node:path';
import { fromAtoms, toAtoms } from '@bourse/shared';
import type {
  PerpAccount,
  PerpDepth,
  PerpLiquidationPage,
  PerpMarket,
  PerpOrder,
  PerpOrderDetail,
  PerpOrderPage,
  PerpTicker,
} from '@bourse/shared/api';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startVenues, type VenueFixtures } from '../apps/server/test/venues/venue-server.ts';
import { loginViaApi, type Platform } from './harness.ts';
import {
  callApi,
  input,
  openDemoPhone,
  phoneSignedIn,
  SCREENS,
  serverText,
  settled,
  toastAfter,
  waitForNoToast,
  watchPage,
  webText,
} from './page-helpers.ts';

const SYMBOL = 'BTCUSDT';
const UNIT = 100_000_000n;
/** Where the three venues start BTC, and where the test moves it (USDT). */
const START = 60_000n;
const UP = 62_400n;
const STOP_LOSS = 61_200n;
const CRASH = 45_000n;

/**
 * The index, as the platform sees it, comes from three loopback venues speaking binance, okx and
 * bybit: each quotes BTC at `price`, re-sent every 500 ms so no quote goes stale (10 s), and ETH
 * steady. Moving all three at once moves the index; no quote is ever an outlier for long.
 */
function steerIndex(venues: VenueFixtures['venues']) {
  let btc = START;
  const push = () => {
    for (const venue of Object.values(venues)) {
      venue.setPrice('BTC/USDT', `${btc}.00`);
      venue.setPrice('ETH/USDT', '3000.00');
    }
  };
  push();
  const timer = setInterval(push, 500);
  return {
    set(price: bigint) {
      btc = price;
      push();
    },
    stop: () => clearInterval(timer),
  };
}

describe('perpetual contracts at phone size (index from three loopback venues, demo maker on)', () => {
  let venues: VenueFixtures;
  let index: ReturnType<typeof steerIndex>;
  let platform: Platform;
  let browser: Browser;
  let trader: { token: string; uid: number };
  let page: Page;
  let market: PerpMarket;

  const api = <T>(
    session: { token: string },
    method: 'GET' | 'POST',
    route: string,
    params: Record<string, string> = {},
  ) => callApi<T>(platform.url, session, method, route, params);

  /** Polls `read` every 250 ms until `done` holds; throws with the last value after `timeoutMs`. */
  async function until<T>(
    read: () => Promise<T>,
    done: (value: T) => boolean,
    what: string,
    timeoutMs = 20_000,
  ) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  const ticker = () => api<PerpTicker>(trader, 'GET', '/Perp/ticker', { symbol: SYMBOL });
  const markOf = (t: PerpTicker) => (t.mark === null ? 0n : toAtoms(t.mark));
  const usdt = (whole: bigint) => whole * UNIT;

  /** Moves the venues' BTC price and waits until the mark has followed it past `reached`. */
  async function moveIndex(price: bigint, reached: (mark: bigint) => boolean, what: string) {
    index.set(price);
    return until(ticker, (t) => !t.frozen && reached(markOf(t)), what);
  }

  /** The mark, the unrealised PnL and the ROE as the position card shows them, read at one instant. */
  function shownFigures(on: Page) {
    return on.evaluate(() => {
      const value = (id: string) =>
        document
          .querySelector(`[data-testid="${id}"] [data-value], [data-testid="${id}"][data-value]`)
          ?.getAttribute('data-value') ?? null;
      return {
        mark: value('perp-position-mark'),
        pnl: value('perp-position-pnl'),
        roe: document.querySelector('[data-testid="perp-position-roe"]')?.textContent ?? null,
        liq: value('perp-position-liq'),
      };
    });
  }

  /** The uPnL and the ROE text (two decimals, truncated, signed) of a position at `mark` (perpetual.md §1). */
  function expectedFigures(position: PerpAccount['position'] & object, mark: string) {
    const qty = toAtoms(position.qty);
    const entry = toAtoms(position.entry_value);
    const pnl = (qty * toAtoms(mark)) / UNIT - entry;
    const im = (entry + BigInt(position.leverage) - 1n) / BigInt(position.leverage);
    const bps = (10_000n * pnl) / im;
    const abs = bps < 0n ? -bps : bps;
    const roe = `${bps > 0n ? '+' : bps < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}%`;
    return { pnl: fromAtoms(pnl), roe };
  }

  beforeAll(async () => {
    venues = await startVenues();
    index = steerIndex(venues.venues);
    ({
      platform,
      browser,
      session: trader,
      page,
    } = await openDemoPhone({ INDEX_SOURCES: 'binance,okx,bybit', INDEX_SOURCE_URLS: venues.env }));
    market = (await api<PerpMarket[]>(trader, 'GET', '/Perp/markets')).find((m) => m.symbol === SYMBOL)!;
    // the mark follows the venues, and the maker quotes its ladder around it
    await until(
      ticker,
      (t) => markOf(t) > usdt(START - 300n) && markOf(t) < usdt(START + 300n),
      'first mark',
    );
    await until(
      () => api<PerpDepth>(trader, 'GET', '/Perp/depth', { symbol: SYMBOL }),
      (d) => d.bids.length >= 3 && d.asks.length >= 3,
      'the maker’s ladder',
    );
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    index?.stop();
    await venues?.close();
  });

  it('opens a 5x long from the order page, and the position card follows the index', async () => {
    expect(market).toMatchObject({ tick_size: '0.10000000', lot_size: '0.00100000', max_leverage: 5 });
    // an index from real venues: the market is not labelled simulated
    expect(market.simulated).toBe(false);
    // start from 1x, so the page is where 5x is chosen
    await api(trader, 'POST', '/Perp/leverage', { symbol: SYMBOL, leverage: '1' });

    const watch = watchPage(page);
    await page.goto(`${platform.url}/#/Trade/trans?symbol=${SYMBOL}`);
    await page.locator(`[data-testid="perp-trade-ready"][data-symbol="${SYMBOL}"]`).waitFor();
    await page.getByTestId('perp-mark').locator('xpath=self::*[@data-value]').waitFor();
    expect(await page.getByTestId('perp-simulated').count()).toBe(0);
    await page.getByTestId('perp-no-position').waitFor();
    expect(await page.getByTestId('perp-leverage').textContent()).toBe('1x');

    await page.getByTestId('perp-leverage').click();
    await page.getByTestId('perp-leverage-5').click();
    expect(await page.getByTestId('perp-leverage-5').getAttribute('aria-pressed')).toBe('true');
    expect(await toastAfter(page, () => page.getByTestId('perp-leverage-confirm').click(), watch)).toBe(
      serverText('success.OK'),
    );
    await page.waitForFunction(
      () => document.querySelector('[data-testid="perp-leverage"]')?.textContent === '5x',
    );

    await page.getByTestId('perp-side-buy').click();
    await page.getByTestId('perp-type-market').click();
    expect(await page.getByTestId('perp-market-price').textContent()).toBe(webText('perp.form.marketPrice'));
    await input(page, 'perp-qty').fill('0.01');
    // the value at the band price (mark + 5 %), a fifth of it held as margin with the taker fee
    const im = toAtoms(
      (await page.getByTestId('perp-im').locator('[data-value]').getAttribute('data-value'))!,
    );
    const value = toAtoms(
      (await page.getByTestId('perp-value').locator('[data-value]').getAttribute('data-value'))!,
    );
    expect(value).toBeGreaterThan(usdt(580n));
    expect(im).toBe((value + 4n) / 5n);
    expect(await page.getByTestId('perp-submit').textContent()).toBe(
      webText('perp.form.submitLong', { coin: 'BTC' }),
    );
    expect(await toastAfter(page, () => page.getByTestId('perp-submit').click(), watch)).toBe(
      serverText('success.ORDER_PLACED'),
    );

    await page.getByTestId('perp-position').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('perp-position').getAttribute('data-side')).toBe('long');
    expect(await page.getByTestId('perp-position-qty').getAttribute('data-value')).toBe('0.01000000');
    const opened = (await api<PerpAccount>(trader, 'GET', '/Perp/account', { symbol: SYMBOL })).position!;
    expect(opened).toMatchObject({ side: 'long', qty: '0.01000000', leverage: 5 });
    // a 5x long: liquidated about 18 % under the entry, bankrupt 20 % under it
    const entry = toAtoms(opened.entry_price);
    expect(toAtoms(opened.liquidation_price!)).toBeGreaterThan((entry * 80n) / 100n);
    expect(toAtoms(opened.liquidation_price!)).toBeLessThan((entry * 83n) / 100n);
    await page.waitForFunction(
      (liq) =>
        document
          .querySelector('[data-testid="perp-position-liq"] [data-value]')
          ?.getAttribute('data-value') === liq,
      opened.liquidation_price,
    );

    // the venues move BTC up 4 %: the mark follows, the card's uPnL and ROE with it, the LP stays
    const before = await shownFigures(page);
    await moveIndex(UP, (mark) => mark >= usdt(UP - 600n), 'mark after the index went up');
    await page.waitForFunction(
      (floor) =>
        Number(
          document
            .querySelector('[data-testid="perp-position-mark"] [data-value]')
            ?.getAttribute('data-value'),
        ) >= floor,
      Number(UP - 600n),
      { timeout: 10_000 },
    );
    const after = await shownFigures(page);
    const expected = expectedFigures(opened, after.mark!);
    expect(after.pnl).toBe(expected.pnl);
    expect(after.roe).toBe(expected.roe);
    expect(toAtoms(after.pnl!)).toBeGreaterThan(usdt(10n));
    expect(toAtoms(after.pnl!)).toBeGreaterThan(toAtoms(before.pnl!));
    expect(after.roe).not.toBe(before.roe);
    expect(after.liq).toBe(before.liq);
    expect(after.liq).toBe(opened.liquidation_price);
    const moved = (await api<PerpAccount>(trader, 'GET', '/Perp/account', { symbol: SYMBOL })).position!;
    expect(moved.liquidation_price).toBe(opened.liquidation_price);
    expect(toAtoms(moved.unrealised_pnl)).toBeGreaterThan(0n);
  });

  it('sets a stop-loss on the mark in the sheet, and it closes the position when the index falls', async () => {
    const watch = watchPage(page);
    // the last trade is still the opening buy, under the stop; the mark went up with the index
    const now = await ticker();
    expect(toAtoms(now.last!)).toBeLessThan(usdt(STOP_LOSS));
    expect(markOf(now)).toBeGreaterThan(usdt(STOP_LOSS));
    await page.getByTestId('perp-open-tpsl').click();
    await input(page, 'perp-tpsl-sl').fill(String(STOP_LOSS));
    // on the last price this stop would fire at once: the sheet refuses it before sending
    await page.getByTestId('perp-tpsl-ref-last').click();
    await page.getByTestId('perp-tpsl-submit').click();
    await page.getByText(webText('perp.errors.triggerBelow')).waitFor();
    // on the mark it waits
    await page.getByTestId('perp-tpsl-ref-mark').click();
    expect(await page.getByTestId('perp-tpsl-ref-mark').getAttribute('aria-pressed')).toBe('true');
    expect(await toastAfter(page, () => page.getByTestId('perp-tpsl-submit').click(), watch)).toBe(
      serverText('success.OK'),
    );
    const account = await api<PerpAccount>(trader, 'GET', '/Perp/account', { symbol: SYMBOL });
    expect(toAtoms(account.position!.stop_loss!)).toBe(usdt(STOP_LOSS));
    const stop = account.orders.find((o) => o.type === 'stop_market')!;
    expect(stop).toMatchObject({
      side: 'sell',
      trigger_ref: 'mark',
      trigger_condition: 'lte',
      close_position: true,
      state: 'untriggered',
    });
    await page.getByTestId(`perp-order-${stop.id}`).waitFor();
    await waitForNoToast(page);
    // the order page with the open position, its live PnL and the waiting stop
    // why: the card and the stop beneath it, right under the page's header (the form is above)
    await page.getByTestId('perp-position-panel').evaluate((panel) => {
      const header = document.querySelector('.nav-bar')?.getBoundingClientRect().height ?? 0;
      window.scrollTo(0, panel.getBoundingClientRect().top + window.scrollY - header - 8);
    });
    await settled(page);
    await page.screenshot({ path: path.join(SCREENS, 'perp-trade.png'), fullPage: false });

    // the venues fall back to the start: the mark crosses the stop, which sells the position at market
    index.set(START);
    const closed = await until(
      () => api<PerpAccount>(trader, 'GET', '/Perp/account', { symbol: SYMBOL }),
      (a) => a.position === null,
      'the position after the stop',
    );
    expect(closed.orders).toEqual([]);
    expect(markOf(await ticker())).toBeLessThanOrEqual(usdt(STOP_LOSS));
    await page.getByTestId('perp-no-position').waitFor({ timeout: 10_000 });

    const fired = await api<PerpOrderDetail>(trader, 'GET', '/Perp/order', { id: stop.id });
    expect(fired).toMatchObject({
      type: 'stop_market',
      trigger_ref: 'mark',
      state: 'filled',
      status: 'completed',
      filled_qty: '0.01000000',
      reduce_only: true,
    });
    expect(toAtoms(fired.trigger_price!)).toBe(usdt(STOP_LOSS));
    expect(fired.fills.length).toBeGreaterThan(0);
    const history = await api<PerpOrderPage>(trader, 'GET', '/Perp/orders', { symbol: SYMBOL });
    expect(history.list.map((o) => o.type).sort()).toEqual(['market', 'stop_market']);

    await page.goto(`${platform.url}/#/Trade/transinfo?id=${fired.id}`);
    await page.getByTestId('perp-detail-state').waitFor();
    expect(await page.getByTestId('perp-detail-type').textContent()).toBe(webText('perp.type.stop_market'));
    expect(
      await page.getByTestId('perp-detail-filled').locator('[data-value]').getAttribute('data-value'),
    ).toBe('0.01000000');
    expect(await page.getByTestId('perp-detail-trigger').textContent()).toContain(webText('perp.ref.mark'));
    expect(await page.locator('[data-testid="perp-fills"] > li').count()).toBe(fired.fills.length);
    await waitForNoToast(page);
    // why: a hash navigation keeps the trade page's scroll
    await page.evaluate(() => window.scrollTo(0, 0));
    await settled(page);
    await page.screenshot({ path: path.join(SCREENS, 'perp-order-detail.png'), fullPage: false });
  });

  it('liquidates a second user’s 5x long that had no stop, and shows the record on their page', async () => {
    const other = await loginViaApi(platform.url, 'demo2', 'demo1234');
    await api(other, 'POST', '/Perp/leverage', { symbol: SYMBOL, leverage: '5' });
    await api<PerpOrder[]>(other, 'POST', '/Perp/place', {
      symbol: SYMBOL,
      side: 'buy',
      type: 'market',
      qty: '0.05',
      idempotency_key: `e2e-perp-long-${Date.now()}`,
    });
    const held = (await api<PerpAccount>(other, 'GET', '/Perp/account', { symbol: SYMBOL })).position!;
    expect(held).toMatchObject({ side: 'long', qty: '0.05000000', leverage: 5, stop_loss: null });
    expect(toAtoms(held.liquidation_price!)).toBeGreaterThan(usdt(CRASH + 2000n));

    // the venues crash 25 %: the mark goes through the LP and the position is taken over at its BP
    index.set(CRASH);
    const records = await until(
      () => api<PerpLiquidationPage>(other, 'GET', '/Perp/liquidations', { symbol: SYMBOL }),
      (page) => page.list.length > 0,
      'the liquidation record',
    );
    const record = records.list[0]!;
    expect(record).toMatchObject({
      kind: 'liquidation',
      side: 'long',
      qty: '0.05000000',
      price: held.bankruptcy_price,
      margin: held.margin,
    });
    expect(toAtoms(record.mark)).toBeLessThanOrEqual(toAtoms(held.liquidation_price!));
    // a takeover at the bankruptcy price loses exactly the margin
    expect(toAtoms(record.pnl)).toBe(-toAtoms(held.margin));
    expect((await api<PerpAccount>(other, 'GET', '/Perp/account', { symbol: SYMBOL })).position).toBeNull();
    // the first user had stopped out before: no record
    expect((await api<PerpLiquidationPage>(trader, 'GET', '/Perp/liquidations')).list).toEqual([]);

    const { context, page: theirs } = await phoneSignedIn(browser, other);
    try {
      await theirs.goto(`${platform.url}/#/Trade/transliq`);
      const row = theirs.locator('[data-testid="perp-liquidation-list"] > li[data-kind="liquidation"]');
      await row.waitFor();
      expect(await theirs.locator('[data-testid="perp-liquidation-list"] > li').count()).toBe(1);
      expect(await row.locator('.perp-tag').textContent()).toBe(webText('perp.liquidations.liquidation'));
      const shown = await row
        .locator('[data-value]')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-value')));
      expect(shown).toEqual([
        record.qty,
        record.entry_price,
        record.price,
        record.mark,
        record.margin,
        record.pnl,
      ]);
    } finally {
      await context.close();
    }
  });
});
