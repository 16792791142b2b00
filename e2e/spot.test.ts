import path from 'node:path';
import { fromAtoms, toAtoms } from '@bourse/shared';
import type { AssetsOverview, DepthSnapshot, SpotMarket, SpotOrder, SpotTicker } from '@bourse/shared/api';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginViaApi, type Platform } from './harness.ts';
import {
  callApi,
  input,
  openDemoPhone,
  plain,
  SCREENS,
  serverText,
  shown,
  toastAfter,
  waitForHash,
  waitForNoToast,
  watchPage,
  webText,
} from './page-helpers.ts';

const SYMBOL = 'BTCUSDT';
const UNIT = 100_000_000n;

describe('spot trading at phone size (demo markets, no market maker)', () => {
  let platform: Platform;
  let browser: Browser;
  let trader: { token: string; uid: number };
  let seller: { token: string; uid: number };
  let page: Page;
  let market: SpotMarket;

  const api = <T>(
    session: { token: string },
    method: 'GET' | 'POST',
    route: string,
    params: Record<string, string> = {},
  ) => callApi<T>(platform.url, session, method, route, params);

  /** The index of the market now, moved by `percent` and cut to the tick size. */
  async function priceOffIndex(percent: bigint): Promise<string> {
    const tickers = await api<SpotTicker[]>(trader, 'GET', '/Market/spottickers');
    const index = toAtoms(tickers.find((t) => t.symbol === SYMBOL)!.index!);
    const tick = toAtoms(market.tick_size);
    const moved = (index * (100n + percent)) / 100n;
    return plain(fromAtoms(moved - (moved % tick)));
  }

  async function openTradePage(on: Page) {
    await on.goto(`${platform.url}/#/Trade/index?symbol=${SYMBOL}`);
    await on
      .locator(`[data-testid="spot-trade-ready"][data-symbol="${SYMBOL}"]`)
      .waitFor({ state: 'visible' });
    await on.getByTestId('order-available').locator('[data-value]').waitFor({ state: 'visible' });
  }

  beforeAll(async () => {
    // why: without the market maker and the demo traders the book and the tape hold only what
    // this test puts there, so every figure can be checked exactly; the suite below runs with them.
    ({ platform, browser, session: trader, page } = await openDemoPhone({ MARKET_MAKER: 'off' }));
    seller = await loginViaApi(platform.url, 'demo2', 'demo1234');
    market = (await api<SpotMarket[]>(trader, 'GET', '/Market/spot')).find((m) => m.symbol === SYMBOL)!;
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('lists the markets with search and favourites, the index beneath, and opens the trade page', async () => {
    await page.goto(`${platform.url}/#/Trade/tradelist`);
    await page.getByTestId(`market-row-${SYMBOL}`).waitFor({ state: 'visible' });
    // no trade yet: the index stands in as the price, and the line beneath says so
    await page.waitForFunction(
      (symbol) => document.querySelector(`[data-testid="market-volume-${symbol}"]`) !== null,
      SYMBOL,
    );
    expect(await page.getByTestId(`market-price-${SYMBOL}`).getAttribute('data-kind')).toBe('index');
    expect(await page.getByTestId(`market-index-${SYMBOL}`).textContent()).toBe(webText('markets.noTrades'));
    expect(await page.getByTestId(`market-volume-${SYMBOL}`).textContent()).toBe(
      webText('markets.volume', { value: '0' }),
    );

    await input(page, 'markets-search').fill('eth');
    await page.getByTestId(`market-row-${SYMBOL}`).waitFor({ state: 'detached' });
    expect(await page.getByTestId('market-row-ETHUSDT').isVisible()).toBe(true);
    await input(page, 'markets-search').fill('');

    await page.getByTestId(`favourite-${SYMBOL}`).click();
    expect(await page.getByTestId(`favourite-${SYMBOL}`).getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('markets-filter-favourites').click();
    expect(await page.locator('[data-testid^="market-row-"]').count()).toBe(1);
    // kept in the browser across a reload
    await page.reload();
    await page.getByTestId(`market-row-${SYMBOL}`).waitFor({ state: 'visible' });
    expect(await page.getByTestId(`favourite-${SYMBOL}`).getAttribute('aria-pressed')).toBe('true');

    await page.getByTestId(`market-link-${SYMBOL}`).click();
    await waitForHash(page, `#/Trade/index?symbol=${SYMBOL}`);
    await page
      .locator(`[data-testid="spot-trade-ready"][data-symbol="${SYMBOL}"]`)
      .waitFor({ state: 'visible' });
  });

  it('places a limit buy below the market that rests in the book and the open orders, then cancels it', async () => {
    // a resting sell of the second demo account above the market, so the book has both sides
    const sellPrice = await priceOffIndex(1n);
    const resting = await api<SpotOrder>(seller, 'POST', '/Trade/place', {
      symbol: SYMBOL,
      side: 'sell',
      type: 'limit',
      price: sellPrice,
      qty: '0.01',
      idempotency_key: 'e2e-seller-0001',
    });
    expect(resting.status).toBe('entrusted');

    await openTradePage(page);
    expect(await page.getByTestId('order-available').textContent()).toBe(`${shown('10000')} USDT`);
    const buyPrice = await priceOffIndex(-5n);
    await input(page, 'order-price').fill(buyPrice);

    // 25 % of 10,000 USDT at the price plus the 0.1 % fee held, on the lot size
    await page.getByTestId('percent-25').click();
    const unitCost = (toAtoms(buyPrice) * (UNIT + toAtoms(market.taker_fee)) + UNIT - 1n) / UNIT;
    const lot = toAtoms(market.lot_size);
    const fits = (toAtoms('2500') * UNIT) / unitCost;
    expect(await input(page, 'order-qty').inputValue()).toBe(plain(fromAtoms(fits - (fits % lot))));

    await input(page, 'order-qty').fill('0.01');
    const total = fromAtoms((toAtoms(buyPrice) * toAtoms('0.01')) / UNIT);
    expect(await page.getByTestId('order-total').textContent()).toBe(`${shown(total)} USDT`);
    expect(await page.getByTestId('order-fee').textContent()).toBe(`${shown('0.00001')} BTC`);
    expect(await page.getByTestId('order-submit').textContent()).toBe(
      webText('spot.form.submitBuy', { coin: 'BTC' }),
    );

    expect(await toastAfter(page, () => page.getByTestId('order-submit').click())).toBe(
      serverText('success.ORDER_PLACED'),
    );
    const open = await api<SpotOrder[]>(trader, 'GET', '/Trade/openorders', { symbol: SYMBOL });
    expect(open).toHaveLength(1);
    const order = open[0]!;
    expect(order).toMatchObject({ side: 'buy', type: 'limit', status: 'entrusted', qty: '0.01000000' });
    expect(toAtoms(order.price!)).toBe(toAtoms(buyPrice));

    // in the open orders and in the book, beside the seller's ask
    await page.getByTestId(`order-row-${order.id}`).waitFor({ state: 'visible' });
    await page.waitForFunction(
      (price) =>
        Array.from(document.querySelectorAll('[data-testid="book-bids"] [data-price]')).some(
          (row) => Number((row as HTMLElement).dataset.price) === Number(price),
        ),
      buyPrice,
      { timeout: 15_000 },
    );
    const depth = await api<DepthSnapshot>(trader, 'GET', '/Market/depth', { symbol: SYMBOL });
    expect(depth.bids.map(([price, qty]) => [toAtoms(price), toAtoms(qty)])).toEqual([
      [toAtoms(buyPrice), toAtoms('0.01')],
    ]);
    expect(await page.locator('[data-testid="book-asks"] [data-price]').count()).toBe(1);
    await waitForNoToast(page);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SCREENS, 'spot-trade.png'), fullPage: false });

    // tapping a level fills its price in
    await page.locator('[data-testid="book-asks"] [data-price]').first().click();
    // shown the page's way (ja-JP groups with a comma), read back to the same price
    expect(await input(page, 'order-price').inputValue()).toBe(
      sellPrice.replace(/^\d+/, (int) => shown(int, 0)),
    );

    expect(await toastAfter(page, () => page.getByTestId(`order-cancel-${order.id}`).click())).toBe(
      serverText('success.ORDER_CANCELLED'),
    );
    await page.getByTestId('open-orders-empty').waitFor({ state: 'visible' });
    const cancelled = await api<SpotOrder>(trader, 'GET', '/Trade/billinfo', { id: order.id });
    expect(cancelled).toMatchObject({ status: 'revoked', revoke_reason: 'user', filled_qty: '0.00000000' });
    const usdt = await api<{ available: string; frozen: string }>(trader, 'GET', '/Finance/getmoney', {
      coin: 'USDT',
    });
    expect(usdt).toMatchObject({ available: '10000.00000000', frozen: '0.00000000' });
  });

  it('fills a market buy against the resting sell, shows it in the orders, its detail and the assets', async () => {
    await openTradePage(page);
    await page.getByTestId('type-market').click();
    expect(await page.getByTestId('order-market-price').textContent()).toBe(webText('spot.form.marketPrice'));
    await input(page, 'order-amount').fill('100');
    expect(await page.getByTestId('order-total').textContent()).toBe(`${shown('100')} USDT`);
    expect(await toastAfter(page, () => page.getByTestId('order-submit').click())).toBe(
      serverText('success.ORDER_PLACED'),
    );

    const completed = await api<{ list: SpotOrder[] }>(trader, 'GET', '/Trade/tradebill', {
      status: 'completed',
    });
    expect(completed.list).toHaveLength(1);
    const fill = completed.list[0]!;
    expect(fill).toMatchObject({
      side: 'buy',
      type: 'market',
      status: 'completed',
      quote_amount: '100.00000000',
    });
    expect(toAtoms(fill.filled_qty)).toBeGreaterThan(0n);
    expect(toAtoms(fill.turnover)).toBeLessThanOrEqual(toAtoms('100'));
    // the fee is taken in BTC from what was bought: 0.1 %
    expect(toAtoms(fill.fee)).toBe((toAtoms(fill.filled_qty) * toAtoms(market.taker_fee)) / UNIT);
    // the trade shows on the page: the last price and the latest trades
    await page.getByTestId('recent-trades').waitFor({ state: 'visible', timeout: 15_000 });

    await page.goto(`${platform.url}/#/Trade/tradebill`);
    await page.getByTestId('order-list').waitFor({ state: 'visible' });
    await page.getByTestId('order-tab-completed').click();
    await page.getByTestId(`order-row-${fill.id}`).waitFor({ state: 'visible' });
    expect(await page.getByTestId(`order-filled-${fill.id}`).textContent()).toBe(
      `${shown(fill.filled_qty, market.qty_decimals)} BTC`,
    );
    expect(await page.getByTestId(`order-status-${fill.id}`).textContent()).toBe(
      webText('spot.status.completed'),
    );
    // the cancelled limit buy is under revoked
    await page.getByTestId('order-tab-revoked').click();
    await page.getByTestId('order-list-revoked').waitFor({ state: 'visible' });
    expect(await page.locator('[data-testid="order-list-revoked"] > li').count()).toBe(1);

    await page.goto(`${platform.url}/#/Trade/billinfo?id=${fill.id}`);
    await page.getByTestId('order-detail').waitFor({ state: 'visible' });
    expect(await page.getByTestId('order-turnover').textContent()).toBe(`${shown(fill.turnover)} USDT`);
    expect(await page.getByTestId('order-fee').textContent()).toBe(`${shown(fill.fee)} BTC`);
    // a market buy by amount is complete once it filled; its degree is the share of the amount spent
    expect(await page.getByTestId('order-completion').textContent()).toBe(`${fill.completion}%`);
    expect(await page.locator('[data-testid="fills"] > li').count()).toBeGreaterThan(0);
    await waitForNoToast(page);
    await page.screenshot({ path: path.join(SCREENS, 'spot-order-detail.png'), fullPage: false });

    // the assets: BTC up by what was bought less the fee, USDT down by the turnover
    const assets = await api<AssetsOverview>(trader, 'GET', '/Finance/index');
    const byCoin = new Map(assets.coins.map((row) => [row.coin, row.total]));
    const btc = fromAtoms(toAtoms('0.5') + toAtoms(fill.filled_qty) - toAtoms(fill.fee));
    expect(byCoin.get('BTC')).toBe(btc);
    expect(byCoin.get('USDT')).toBe(fromAtoms(toAtoms('10000') - toAtoms(fill.turnover)));
    await page.goto(`${platform.url}/#/User/index`);
    await page.getByTestId('asset-row-BTC').waitFor({ state: 'visible' });
    expect(await page.getByTestId('asset-row-BTC').locator('.wallet-row-amount').textContent()).toBe(
      shown(btc),
    );

    // the market list now shows the last trade price, with the index beneath
    await page.goto(`${platform.url}/#/Trade/tradelist`);
    await page.getByTestId(`market-row-${SYMBOL}`).waitFor({ state: 'visible' });
    await page.waitForFunction(
      (symbol) =>
        document.querySelector(`[data-testid="market-price-${symbol}"]`)?.getAttribute('data-kind') ===
        'last',
      SYMBOL,
      { timeout: 15_000 },
    );
    expect(await page.getByTestId(`market-volume-${SYMBOL}`).textContent()).toBe(
      webText('markets.volume', { value: plain(fill.filled_qty) }),
    );
    await page.screenshot({ path: path.join(SCREENS, 'spot-market-list.png'), fullPage: false });
  });

  it('keeps the book and the tape live over /ws: another user’s order shows with no request for them', async () => {
    const frames: string[] = [];
    // why: a fresh load, so the page opens its socket (and subscribes) after the listener is on.
    await page.goto('about:blank');
    page.on('websocket', (socket) => socket.on('framesent', (frame) => frames.push(String(frame.payload))));
    await openTradePage(page);
    await expect.poll(() => frames.some((f) => f.includes(`"depth:${SYMBOL}"`))).toBe(true);
    await expect.poll(() => frames.some((f) => f.includes(`"trades:${SYMBOL}"`))).toBe(true);
    const polled: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (url.includes('/Market/depth') || url.includes('/Market/trades')) polled.push(url);
    });
    const price = await priceOffIndex(3n);
    const placed = await api<SpotOrder>(seller, 'POST', '/Trade/place', {
      symbol: SYMBOL,
      side: 'sell',
      type: 'limit',
      price,
      qty: '0.002',
      idempotency_key: `ws-live-${Date.now()}`,
    });
    await page.waitForFunction(
      (p) =>
        Array.from(document.querySelectorAll('[data-testid="book-asks"] [data-price]')).some(
          (row) => Number((row as HTMLElement).dataset.price) === Number(p),
        ),
      price,
      { timeout: 10_000 },
    );
    await api(seller, 'POST', '/Trade/cancel', { id: placed.id });
    await page.waitForFunction(
      (p) =>
        !Array.from(document.querySelectorAll('[data-testid="book-asks"] [data-price]')).some(
          (row) => Number((row as HTMLElement).dataset.price) === Number(p),
        ),
      price,
      { timeout: 10_000 },
    );
    // why: the socket is open, so the page never asked for the book or the tape again.
    expect(polled).toEqual([]);
  });

  it('switches the market from its sheet, and cancels every open order of the market after confirming in a sheet', async () => {
    const usdt = () =>
      api<{ available: string; frozen: string }>(trader, 'GET', '/Finance/getmoney', { coin: 'USDT' });
    const before = await usdt();
    const prices = [await priceOffIndex(-5n), await priceOffIndex(-6n)];
    for (const [k, price] of prices.entries()) {
      await api<SpotOrder>(trader, 'POST', '/Trade/place', {
        symbol: SYMBOL,
        side: 'buy',
        type: 'limit',
        price,
        qty: '0.01',
        idempotency_key: `e2e-cancel-all-${k}`,
      });
    }
    await openTradePage(page);

    // the switcher: a sheet of the markets; picking one opens its page and closes the sheet
    await page.getByTestId('pair-switch').click();
    await page.getByTestId('market-sheet').waitFor({ state: 'visible' });
    await page.getByTestId('switch-ETHUSDT').click();
    await page
      .locator('[data-testid="spot-trade-ready"][data-symbol="ETHUSDT"]')
      .waitFor({ state: 'visible' });
    await waitForHash(page, '#/Trade/index?symbol=ETHUSDT');
    await page.getByTestId('market-sheet').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('open-orders-empty').isVisible()).toBe(true);
    await page.getByTestId('pair-switch').click();
    await page.getByTestId(`switch-${SYMBOL}`).click();
    await page
      .locator(`[data-testid="spot-trade-ready"][data-symbol="${SYMBOL}"]`)
      .waitFor({ state: 'visible' });
    await page.getByTestId('market-sheet').waitFor({ state: 'hidden' });

    // cancel-all asks first; backing out cancels nothing
    await page.locator('[data-testid="open-orders"] li').nth(1).waitFor({ state: 'visible' });
    await page.getByTestId('cancel-all').click();
    const sheet = page.getByTestId('cancel-all-sheet');
    await sheet.waitFor({ state: 'visible' });
    expect(await sheet.locator('h2').textContent()).toBe(webText('spot.open.cancelAllTitle'));
    await sheet.getByRole('button', { name: webText('common.back') }).click();
    await sheet.waitFor({ state: 'hidden' });
    expect(await api<SpotOrder[]>(trader, 'GET', '/Trade/openorders', { symbol: SYMBOL })).toHaveLength(2);

    await page.getByTestId('cancel-all').click();
    await sheet.waitFor({ state: 'visible' });
    expect(await toastAfter(page, () => page.getByTestId('cancel-all-confirm').click())).toBe(
      serverText('success.ORDER_CANCELLED'),
    );
    await sheet.waitFor({ state: 'hidden' });
    await page.getByTestId('open-orders-empty').waitFor({ state: 'visible' });
    expect(await api<SpotOrder[]>(trader, 'GET', '/Trade/openorders', { symbol: SYMBOL })).toEqual([]);
    // the holds are back, to the atom
    expect(await usdt()).toEqual(before);
    await waitForNoToast(page);
  });
});

describe('spot trading against the market maker at phone size', () => {
  let platform: Platform;
  let browser: Browser;
  let trader: { token: string; uid: number };
  let page: Page;

  beforeAll(async () => {
    ({ platform, browser, session: trader, page } = await openDemoPhone());
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('finds the book quoted on both sides, and a market buy fills against the maker', async () => {
    const api = <T>(method: 'GET' | 'POST', route: string, params: Record<string, string> = {}) =>
      callApi<T>(platform.url, trader, method, route, params);
    // the maker quotes within a few feed ticks of the start
    let depth: DepthSnapshot = { symbol: SYMBOL, seq: 0, bids: [], asks: [] };
    for (let i = 0; i < 60 && (depth.bids.length < 2 || depth.asks.length < 2); i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      depth = await api<DepthSnapshot>('GET', '/Market/depth', { symbol: SYMBOL });
    }
    expect(depth.bids.length).toBeGreaterThanOrEqual(2);
    expect(depth.asks.length).toBeGreaterThanOrEqual(2);
    expect(toAtoms(depth.bids[0]![0])).toBeLessThan(toAtoms(depth.asks[0]![0]));

    // every height the ticker head takes, frame by frame: anything it gains or loses moves the
    // order form below it, under the finger about to tap it
    await page.addInitScript(() => {
      const heights = new Set<number>();
      Object.assign(window, { tickerHeights: heights });
      const sample = () => {
        const head = document.querySelector('.spot-ticker');
        if (head) heights.add(Math.round(head.getBoundingClientRect().height));
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    const watch = watchPage(page);
    await page.goto(`${platform.url}/#/Trade/index?symbol=${SYMBOL}`);
    await page
      .locator(`[data-testid="spot-trade-ready"][data-symbol="${SYMBOL}"]`)
      .waitFor({ state: 'visible' });
    await page.locator('[data-testid="book-asks"] [data-price]').first().waitFor({ state: 'visible' });
    await page.locator('[data-testid="book-bids"] [data-price]').first().waitFor({ state: 'visible' });
    await page.getByTestId('order-available').locator('[data-value]').waitFor({ state: 'visible' });
    // the trade page as a visitor of the demo sees it: a quoted book and a moving tape
    await page.screenshot({ path: path.join(SCREENS, 'spot-trade.png'), fullPage: false });
    await page.getByTestId('type-market').click();
    await input(page, 'order-amount').fill('50');
    expect(await toastAfter(page, () => page.getByTestId('order-submit').click(), watch)).toBe(
      serverText('success.ORDER_PLACED'),
    );
    // the index, the first trades and the live ticker came in meanwhile: the head kept one height
    expect(
      await page.evaluate(() => [...(window as unknown as { tickerHeights: Set<number> }).tickerHeights]),
    ).toHaveLength(1);
    const orders = await api<{ list: SpotOrder[] }>('GET', '/Trade/tradebill', { status: 'completed' });
    expect(orders.list).toHaveLength(1);
    const order = orders.list[0]!;
    expect(order).toMatchObject({ side: 'buy', type: 'market', status: 'completed' });
    expect(toAtoms(order.filled_qty)).toBeGreaterThan(0n);
    // nobody but the maker sells on this market: the fills are its asks, at or above the best ask seen
    const detail = await api<SpotOrder & { fills: { price: string; role: string }[] }>(
      'GET',
      '/Trade/billinfo',
      {
        id: order.id,
      },
    );
    expect(detail.fills.length).toBeGreaterThan(0);
    for (const fill of detail.fills) expect(fill.role).toBe('taker');
    const usdt = await api<{ available: string; frozen: string }>('GET', '/Finance/getmoney', {
      coin: 'USDT',
    });
    expect(usdt).toMatchObject({
      available: fromAtoms(toAtoms('10000') - toAtoms(order.turnover)),
      frozen: '0.00000000',
    });

    await page.goto(`${platform.url}/#/Trade/tradelist`);
    await page.getByTestId(`market-row-${SYMBOL}`).waitFor({ state: 'visible' });
    await page.waitForFunction(
      (symbol) =>
        document.querySelector(`[data-testid="market-price-${symbol}"]`)?.getAttribute('data-kind') ===
        'last',
      SYMBOL,
      { timeout: 15_000 },
    );
    await waitForNoToast(page);
    await page.screenshot({ path: path.join(SCREENS, 'spot-market-list.png'), fullPage: false });
  });
});
