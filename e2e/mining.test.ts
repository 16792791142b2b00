import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../apps/server/test/harness.ts';
import {
  DAY_MS,
  fundUsdt,
  join,
  type Member,
  startLaunchpadServer,
} from '../apps/server/test/launchpad-harness.ts';
import { launchChromium } from './harness.ts';
import { phoneSignedIn, SCREENS, settled, waitForHash, webText } from './page-helpers.ts';

/**
 * The mining market end to end at phone size, on a server whose clock the test moves: a funded
 * user buys a sole machine, two midnights pass and the profit list shows two days of output,
 * frozen then released; a second user buys a share through the first buyer's link.
 */
describe('mining market at phone size', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let phone: Page;
  let first: Member;
  let second: Member;
  let soleId: string;
  let sharedId: string;

  async function signIn(member: Member) {
    await context?.close();
    ({ context, page: phone } = await phoneSignedIn(browser, member));
  }

  beforeAll(async () => {
    [{ server }, browser] = await Promise.all([startLaunchpadServer('sqlite'), launchChromium()]);
    fs.mkdirSync(SCREENS, { recursive: true });
    first = await join(server, 'miner_one');
    second = await join(server, 'miner_two');
    await fundUsdt(server, first, '2000');
    await fundUsdt(server, second, '2000');
    const products = (await server.call('GET', '/Orepool/index', {}, { token: first.token })).data.list as {
      id: string;
      type: string;
    }[];
    soleId = products.find((p) => p.type === 'sole')!.id;
    sharedId = products.find((p) => p.type === 'shared')!.id;
    await signIn(first);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the machines with price, output, days and capacity left', async () => {
    await phone.goto(`${server.url}/#/Orepool/index`);
    await phone.getByTestId(`machine-${soleId}`).waitFor();
    expect(await phone.getByTestId(`machine-status-${soleId}`).textContent()).toBe(
      webText('mining.status.normal'),
    );
    await settled(phone);
    await phone.screenshot({ path: path.join(SCREENS, 'mining-index.png') });
  });

  it('buys a sole machine after reading the fee breakdown, break-even and "not guaranteed"', async () => {
    await phone.getByTestId(`machine-${soleId}`).click();
    await waitForHash(phone, `#/Orepool/kjinfo?id=${soleId}`);
    expect(await phone.getByTestId('machine-price').textContent()).toBe('500.00 USDT');
    expect(await phone.getByTestId('machine-break-even').textContent()).toContain('83,333.33');
    expect(await phone.getByTestId('not-guaranteed').isVisible()).toBe(true);
    await settled(phone);
    await phone.screenshot({ path: path.join(SCREENS, 'mining-detail.png'), fullPage: true });
    await phone.getByTestId('buy-submit').click();
    await phone.goto(`${server.url}/#/Orepool/index`);
    await phone.getByTestId('my-machines').locator('[data-testid^="order-"]').first().waitFor();
  });

  it('after two midnights lists two days of output, the first released and the second frozen', async () => {
    const now = server.clock.now();
    const start = now - (now % DAY_MS) + DAY_MS;
    await server.clock.advance(start + 2 * DAY_MS - now);
    await server.app.ctx.mining!.runJobs();
    await phone.goto(`${server.url}/#/Orepool/Profitlist`);
    const list = phone.getByTestId('profit-list');
    await list.waitFor();
    const states = await list.locator('[data-testid^="profit-state-"]').allTextContents();
    expect(states).toEqual([webText('mining.frozen'), webText('mining.released')]);
    expect(await list.textContent()).toContain('0.00020000 BTC');
    await settled(phone);
    await phone.screenshot({ path: path.join(SCREENS, 'mining-profits.png') });
    await phone.goto(`${server.url}/#/Orepool/profitline`);
    await phone.getByTestId('curve-BTC').waitFor();
    await phone.getByTestId('profit-chart').locator('canvas').first().waitFor();
    expect(await phone.getByTestId('curve-BTC').textContent()).toContain('0.00040000 BTC');
    await settled(phone);
    await phone.screenshot({ path: path.join(SCREENS, 'mining-curve.png') });
  });

  it('sells the rest of a shared machine through its first buyer’s link', async () => {
    await phone.goto(`${server.url}/#/Orepool/kjinfo?id=${sharedId}`);
    await phone.getByTestId('share-1000').click();
    expect(await phone.getByTestId('buy-price').textContent()).toBe('1,000.00 USDT');
    await phone.getByTestId('buy-submit').click();
    await phone.getByTestId('share-link').waitFor();
    const orders = (await server.call('GET', '/Orepool/index', {}, { token: first.token })).data.orders as {
      product_id: string;
      share_code: string | null;
    }[];
    const code = orders.find((o) => o.product_id === sharedId)!.share_code!;

    await signIn(second);
    await phone.goto(`${server.url}/#/Orepool/kjinfo?id=${sharedId}&share=${code}`);
    await phone.getByTestId('share-choices').waitFor();
    await phone.getByTestId('share-1500').click();
    await phone.getByTestId('buy-submit').click();
    await expect
      .poll(
        async () =>
          (await server.call('GET', '/Orepool/index', {}, { token: second.token })).data.orders.length,
      )
      .toBe(1);
    const mine = (await server.call('GET', '/Orepool/index', {}, { token: second.token })).data.orders[0];
    expect(mine).toMatchObject({ product_id: sharedId, share_bp: 1500, price: '1500.00000000' });
  });
});
