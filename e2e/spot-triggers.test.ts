import path from 'node:path';
import { fromAtoms, toAtoms } from '@bourse/shared';
import type { SpotMarket, SpotOrder, SpotOrderDetail, SpotTicker } from '@bourse/shared/api';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginViaApi, type Platform } from './harness.ts';
import {
  callApi,
  input,
  openDemoPhone,
  plain,
  SCREENS,
  seriousViolations,
  serverText,
  settled,
  shown,
  toastAfter,
  waitForNoToast,
  watchPage,
  webText,
} from './page-helpers.ts';

const SYMBOL = 'BTCUSDT';
const UNIT = 100_000_000n;

describe('spot trigger orders at phone size (demo markets, no market maker)', () => {
  let platform: Platform;
  let browser: Browser;
  let trader: { token: string; uid: number };
  let seller: { token: string; uid: number };
  let page: Page;
  let market: SpotMarket;
  /** The index when the suite starts, cut to the tick: the first trade's price. */
  let start: bigint;

  const api = <T>(
    session: { token: string },
    method: 'GET' | 'POST',
    route: string,
    params: Record<string, string> = {},
  ) => callApi<T>(platform.url, session, method, route, params);

  /** `start` moved by `bps` hundredths of a percent, cut to the tick, as a plain decimal. */
  function priceOff(bps: bigint): string {
    const tick = toAtoms(market.tick_size);
    const moved = (start * (10_000n + bps)) / 10_000n;
    return plain(fromAtoms(moved - (moved % tick)));
  }

  /** A trade of the seller's ask with a buy through the API at `price`: the last price moves there. */
  async function tradeAt(price: string, qty: string, key: string) {
    await api<SpotOrder>(seller, 'POST', '/Trade/place', {
      symbol: SYMBOL,
      side: 'sell',
      type: 'limit',
      price,
      qty,
      idempotency_key: `${key}-ask`,
    });
    const taker = await api<SpotOrder>(trader, 'POST', '/Trade/place', {
      symbol: SYMBOL,
      side: 'buy',
      type: 'limit',
      price,
      qty,
      tif: 'ioc',
      idempotency_key: `${key}-bid`,
    });
    expect(taker.status).toBe('completed');
  }

  async function waitForLast(price: string) {
    await page.waitForFunction(
      (expected) =>
        Number(document.querySelector('[data-testid="spot-last"]')?.getAttribute('data-value')) ===
        Number(expected),
      price,
      { timeout: 15_000 },
    );
  }

  beforeAll(async () => {
    ({ platform, browser, session: trader, page } = await openDemoPhone({ MARKET_MAKER: 'off' }));
    seller = await loginViaApi(platform.url, 'demo2', 'demo1234');
    market = (await api<SpotMarket[]>(trader, 'GET', '/Market/spot')).find((m) => m.symbol === SYMBOL)!;
    // why: the server answers before its feed has ticked every market; the index comes with the first tick.
    let indexText: string | null | undefined;
    for (const deadline = Date.now() + 15_000; !indexText && Date.now() < deadline; ) {
      const tickers = await api<SpotTicker[]>(trader, 'GET', '/Market/spottickers');
      indexText = tickers.find((t) => t.symbol === SYMBOL)?.index;
      if (!indexText) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!indexText) throw new Error(`no index for ${SYMBOL} within 15 s`);
    const index = toAtoms(indexText);
    const tick = toAtoms(market.tick_size);
    start = index - (index % tick);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('places a stop-limit buy through the form, which waits with its funds held, then fires and fills', async () => {
    // a first trade gives the market its last price, which triggers watch
    const last = priceOff(0n);
    await tradeAt(last, '0.001', 'e2e-first');

    const watch = watchPage(page);
    await page.goto(`${platform.url}/#/Trade/index?symbol=${SYMBOL}`);
    await page
      .locator(`[data-testid="spot-trade-ready"][data-symbol="${SYMBOL}"]`)
      .waitFor({ state: 'visible' });
    await page.getByTestId('order-available').locator('[data-value]').waitFor({ state: 'visible' });
    await waitForLast(last);
    const usdtBefore = await api<{ available: string; frozen: string }>(trader, 'GET', '/Finance/getmoney', {
      coin: 'USDT',
    });

    // the third order type, with its three kinds; a stop-limit first
    await page.getByTestId('type-trigger').click();
    expect(await page.getByTestId('type-trigger').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('trigger-type-stop_limit').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('order-last-price').textContent()).toBe(
      `${webText('spot.trigger.last')} ${shown(last, 2)}`,
    );
    // a stop buys when the price rises to its trigger
    expect(await page.getByTestId('order-trigger-condition').textContent()).toBe(
      webText('spot.trigger.whenRises'),
    );

    // a trigger the last price has already reached is refused in the form, with the server's words
    await input(page, 'order-trigger-price').fill(priceOff(-100n));
    await input(page, 'order-price').fill(priceOff(200n));
    await input(page, 'order-qty').fill('0.001');
    await page.getByTestId('order-submit').click();
    await page
      .getByText(webText('form.errors.TRIGGER_WOULD_FIRE'))
      .waitFor({ state: 'visible', timeout: 5_000 });
    expect(await api<SpotOrder[]>(trader, 'GET', '/Trade/openorders', { symbol: SYMBOL })).toEqual([]);

    // 1 % above the last price; the limit 2 % above
    const trigger = priceOff(100n);
    const limit = priceOff(200n);
    await input(page, 'order-trigger-price').fill(trigger);
    expect(await page.getByTestId('order-trigger-condition').textContent()).toBe(
      webText('spot.trigger.when', { level: `≥\u00a0${shown(trigger, 2)}` }),
    );
    await page.getByText(webText('form.errors.TRIGGER_WOULD_FIRE')).waitFor({ state: 'detached' });
    const total = fromAtoms((toAtoms(limit) * toAtoms('0.001')) / UNIT);
    expect(await page.getByTestId('order-total').textContent()).toBe(`${shown(total)} USDT`);

    await waitForNoToast(page);
    await page.evaluate(() => {
      document.querySelector('.trade-desk')?.scrollIntoView({ block: 'start' });
      window.scrollBy(0, -60);
    });
    await settled(page);
    await page.screenshot({ path: path.join(SCREENS, 'spot-trigger-order.png'), fullPage: false });
    expect(await seriousViolations(page)).toEqual([]);

    expect(await toastAfter(page, () => page.getByTestId('order-submit').click(), watch)).toBe(
      serverText('success.ORDER_PLACED'),
    );
    const open = await api<SpotOrder[]>(trader, 'GET', '/Trade/openorders', { symbol: SYMBOL });
    expect(open).toHaveLength(1);
    const order = open[0]!;
    expect(order).toMatchObject({
      side: 'buy',
      type: 'stop_limit',
      status: 'entrusted',
      trigger_condition: 'gte',
      triggered_at: null,
      qty: '0.00100000',
    });
    expect(toAtoms(order.trigger_price!)).toBe(toAtoms(trigger));
    expect(toAtoms(order.price!)).toBe(toAtoms(limit));
    // funds are held at placement: the limit price × quantity
    const usdtHeld = await api<{ available: string; frozen: string }>(trader, 'GET', '/Finance/getmoney', {
      coin: 'USDT',
    });
    expect(toAtoms(usdtHeld.frozen) - toAtoms(usdtBefore.frozen)).toBe(toAtoms(total));
    // nothing of it is in the book while it waits
    const depth = await api<{ bids: unknown[] }>(trader, 'GET', '/Market/depth', { symbol: SYMBOL });
    expect(depth.bids).toEqual([]);

    // in the open orders with its condition, waiting
    const row = page.getByTestId(`order-trigger-${order.id}`);
    await row.waitFor({ state: 'visible' });
    expect(await seriousViolations(page)).toEqual([]);
    expect(await row.locator('.num').textContent()).toBe(
      webText('spot.trigger.condition', { level: `≥\u00a0${shown(trigger, 2)}` }),
    );
    expect(await row.locator('[data-state]').getAttribute('data-state')).toBe('waiting');
    expect(await row.locator('[data-state]').textContent()).toBe(webText('spot.trigger.waiting'));

    // trades move the last price across the trigger: it fires, enters at its limit and takes the ask left
    const crossing = priceOff(150n);
    await api<SpotOrder>(seller, 'POST', '/Trade/place', {
      symbol: SYMBOL,
      side: 'sell',
      type: 'limit',
      price: crossing,
      qty: '0.002',
      idempotency_key: 'e2e-cross-ask',
    });
    await api<SpotOrder>(trader, 'POST', '/Trade/place', {
      symbol: SYMBOL,
      side: 'buy',
      type: 'limit',
      price: crossing,
      qty: '0.001',
      tif: 'ioc',
      idempotency_key: 'e2e-cross-bid',
    });
    await page.getByTestId('open-orders-empty').waitFor({ state: 'visible', timeout: 15_000 });
    const fired = await api<SpotOrderDetail>(trader, 'GET', '/Trade/billinfo', { id: order.id });
    expect(fired).toMatchObject({ status: 'completed', filled_qty: '0.00100000', trigger_condition: 'gte' });
    expect(fired.triggered_at).not.toBeNull();
    expect(fired.fills).toHaveLength(1);
    expect(toAtoms(fired.fills[0]!.price)).toBe(toAtoms(crossing));
    // the hold went to the trade; what the better price left over is back
    const usdtAfter = await api<{ available: string; frozen: string }>(trader, 'GET', '/Finance/getmoney', {
      coin: 'USDT',
    });
    expect(usdtAfter.frozen).toBe(usdtBefore.frozen);

    // the order list: completed, with its condition and fired
    await page.goto(`${platform.url}/#/Trade/tradebill?status=completed`);
    await page.getByTestId(`order-row-${order.id}`).waitFor({ state: 'visible' });
    const listed = page.getByTestId(`order-trigger-${order.id}`);
    expect(await listed.locator('.num').textContent()).toBe(
      webText('spot.trigger.condition', { level: `≥\u00a0${shown(trigger, 2)}` }),
    );
    expect(await listed.locator('[data-state]').getAttribute('data-state')).toBe('fired');
    expect(await page.getByTestId(`order-status-${order.id}`).textContent()).toBe(
      webText('spot.status.completed'),
    );

    // the detail: the spec's trigger condition, when it fired, and the fill
    await page.getByTestId(`order-row-${order.id}`).locator('a').click();
    await page.getByTestId('order-detail').waitFor({ state: 'visible' });
    expect(await page.getByTestId('order-type').textContent()).toBe(webText('spot.type.stop_limit'));
    const condition = page.getByTestId('order-trigger-condition');
    expect(await condition.locator('.num').textContent()).toBe(
      webText('spot.trigger.condition', { level: `≥\u00a0${shown(trigger, 2)}` }),
    );
    expect(await condition.locator('[data-state]').textContent()).toBe(webText('spot.trigger.fired'));
    expect(await page.getByTestId('order-triggered-at').textContent()).not.toBe('—');
    expect(await page.locator('[data-testid="fills"] > li').count()).toBe(1);
    await waitForNoToast(page);
    await page.screenshot({ path: path.join(SCREENS, 'spot-trigger-detail.png'), fullPage: false });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('places a stop-market sell below the price, which waits in the open orders and is cancelled with its hold released', async () => {
    await page.goto(`${platform.url}/#/Trade/index?symbol=${SYMBOL}`);
    await page
      .locator(`[data-testid="spot-trade-ready"][data-symbol="${SYMBOL}"]`)
      .waitFor({ state: 'visible' });
    await page.getByTestId('order-available').locator('[data-value]').waitFor({ state: 'visible' });
    const btcBefore = await api<{ available: string; frozen: string }>(trader, 'GET', '/Finance/getmoney', {
      coin: 'BTC',
    });
    await page.getByTestId('side-sell').click();
    await page.getByTestId('type-trigger').click();
    await page.getByTestId('trigger-type-stop_market').click();
    // a stop sells when the price falls to its trigger; a stop-market has no price of its own
    expect(await page.getByTestId('order-trigger-condition').textContent()).toBe(
      webText('spot.trigger.whenFalls'),
    );
    expect(await page.getByTestId('order-market-price').textContent()).toBe(webText('spot.form.marketPrice'));
    const trigger = priceOff(-300n);
    await input(page, 'order-trigger-price').fill(trigger);
    expect(await page.getByTestId('order-trigger-condition').textContent()).toBe(
      webText('spot.trigger.when', { level: `≤\u00a0${shown(trigger, 2)}` }),
    );
    await input(page, 'order-qty').fill('0.01');
    expect(await toastAfter(page, () => page.getByTestId('order-submit').click())).toBe(
      serverText('success.ORDER_PLACED'),
    );
    const open = await api<SpotOrder[]>(trader, 'GET', '/Trade/openorders', { symbol: SYMBOL });
    expect(open).toHaveLength(1);
    const order = open[0]!;
    expect(order).toMatchObject({
      side: 'sell',
      type: 'stop_market',
      status: 'entrusted',
      price: null,
      trigger_condition: 'lte',
      triggered_at: null,
    });
    const btcHeld = await api<{ available: string; frozen: string }>(trader, 'GET', '/Finance/getmoney', {
      coin: 'BTC',
    });
    expect(toAtoms(btcHeld.frozen) - toAtoms(btcBefore.frozen)).toBe(toAtoms('0.01'));

    const row = page.getByTestId(`order-trigger-${order.id}`);
    await row.waitFor({ state: 'visible' });
    expect(await row.locator('.num').textContent()).toBe(
      webText('spot.trigger.condition', { level: `≤\u00a0${shown(trigger, 2)}` }),
    );
    expect(await toastAfter(page, () => page.getByTestId(`order-cancel-${order.id}`).click())).toBe(
      serverText('success.ORDER_CANCELLED'),
    );
    await page.getByTestId('open-orders-empty').waitFor({ state: 'visible' });
    const cancelled = await api<SpotOrder>(trader, 'GET', '/Trade/billinfo', { id: order.id });
    expect(cancelled).toMatchObject({ status: 'revoked', revoke_reason: 'user', triggered_at: null });
    const btcAfter = await api<{ available: string; frozen: string }>(trader, 'GET', '/Finance/getmoney', {
      coin: 'BTC',
    });
    expect(btcAfter).toEqual(btcBefore);

    // the revoked list shows it never fired
    await page.goto(`${platform.url}/#/Trade/tradebill?status=revoked`);
    await page.getByTestId(`order-trigger-${order.id}`).waitFor({ state: 'visible' });
    expect(
      await page.getByTestId(`order-trigger-${order.id}`).locator('[data-state]').getAttribute('data-state'),
    ).toBe('notFired');
  });
});
