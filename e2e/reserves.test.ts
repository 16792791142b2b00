import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InclusionProof, SnapshotList } from '@bourse/shared/api';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newPhoneContext, type Platform } from './harness.ts';
import { callApi, openDemoPhone, SCREENS, webText } from './page-helpers.ts';

describe('the proof-of-reserves verifier page at phone size', () => {
  let platform: Platform;
  let browser: Browser;
  let session: { token: string; uid: number };
  let page: Page;
  let proof: InclusionProof;
  let snapshots: SnapshotList;
  let demoId: number;
  const saved = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-verify-'));

  beforeAll(async () => {
    ({ platform, browser, session, page } = await openDemoPhone());
    snapshots = await callApi(platform.url, session, 'GET', '/por/snapshots');
    // why: the demo's own snapshot, with its simulated reserves. After 01:00 UTC the daily job
    // publishes that day's 00:00 snapshot (no reserve entries: staff attach them) a minute after
    // start, and the newest snapshot is then that one; every check here is on the demo's.
    const demoSnapshot = snapshots.list.find((header) => header.reserves.length > 0);
    if (!demoSnapshot) throw new Error('the demo published no snapshot with reserves');
    demoId = demoSnapshot.snapshot_id;
    proof = await callApi(platform.url, session, 'GET', '/por/proof', { snapshot_id: String(demoId) });
  });

  /** The demo's snapshot header (see beforeAll). */
  const demoHeader = () => snapshots.list.find((header) => header.snapshot_id === demoId);
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    fs.rmSync(saved, { recursive: true, force: true });
  });

  const expectVerified = async (target: Page) => {
    await target.locator('#checks li.bad').or(target.locator('#checks li.ok').last()).first().waitFor();
    expect(await target.locator('#checks li.bad').count()).toBe(0);
    expect(await target.locator('#checks li.ok').count()).toBe(4);
    const header = demoHeader();
    const rows = await target.locator('#balances tr').allTextContents();
    // why: the demo user's counted balances per asset, formatted exactly from the proof's atoms.
    const expected = (header?.assets ?? []).map((asset, i) => {
      const atoms = BigInt(proof.balances[i] as string);
      const fraction = (atoms % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
      return `${asset}${atoms / 100_000_000n}${fraction ? `.${fraction}` : ''}`;
    });
    expect(rows).toEqual(expected);
  };

  it('a demo user opens proof of reserves from the user tab, verifies their balance and sees it match their statement', async () => {
    await page.goto(`${platform.url}/#/Index/uoption`);
    await page.getByTestId('menu-reserves').click();
    await page.getByTestId('reserves-latest').waitFor();
    if ((await page.getByTestId('reserves-choose').count()) > 0) {
      await page.getByTestId('reserves-choose').selectOption(String(demoId));
    }
    // the demo's reserves are simulated: shown with their ratio, and the page says they are simulated
    const latest = demoHeader();
    const cells = await page.getByTestId('reserves-row-USDT').locator('td').allTextContents();
    expect(cells[0]).toBe('USDT');
    expect(cells[3]).toBe(latest?.ratios.USDT);
    expect(
      await page.getByTestId('reserves-row-USDT').locator('[data-value]').nth(1).getAttribute('data-value'),
    ).toBe(
      `${BigInt(latest?.reserve_totals.USDT ?? '0') / 100_000_000n}.${(BigInt(latest?.reserve_totals.USDT ?? '0') % 100_000_000n).toString().padStart(8, '0')}`,
    );
    expect(await page.getByTestId('reserves-claim').textContent()).toBe(webText('reserves.simulated'));
    expect(await page.getByTestId('reserves-fingerprint').textContent()).toContain(snapshots.fingerprint);

    await page.getByTestId('reserves-verify').click();
    await page.getByTestId('reserves-result').waitFor();
    expect(await page.getByTestId('reserves-statement-check').getAttribute('class')).toBe('is-ok');
    const header = demoHeader();
    for (const [i, asset] of (header?.assets ?? []).entries()) {
      const cells = page.getByTestId(`verified-row-${asset}`).locator('[data-value]');
      const values = await cells.evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-value')));
      const atoms = BigInt(proof.balances[i] as string);
      const expected = `${atoms / 100_000_000n}.${(atoms % 100_000_000n).toString().padStart(8, '0')}`;
      expect(values).toEqual([expected, expected]);
    }
    await page.screenshot({ path: path.join(SCREENS, 'reserves-verified.png'), fullPage: true });
  });

  it('served by the platform: fills the headers and key itself, and verifies the pasted proof', async () => {
    await page.goto(`${platform.url}/por/verify.html?lang=en`);
    await expect
      .poll(() => page.locator('#fingerprint').textContent())
      .toBe(`Key fingerprint: ${snapshots.fingerprint}`);
    await page.locator('#proof').fill(JSON.stringify(proof));
    await page.locator('#verify').click();
    await expectVerified(page);
    await page.screenshot({ path: path.join(SCREENS, 'por-verify-page.png'), fullPage: true });
  });

  it('saved to disk and opened with no network: verifies the same proof', async () => {
    const html = await (await fetch(`${platform.url}/por/verify.html`)).text();
    const file = path.join(saved, 'verify.html');
    fs.writeFileSync(file, html);
    const context = await newPhoneContext(browser, { locale: 'en-US' });
    await context.setOffline(true);
    const offline = await context.newPage();
    const requests: string[] = [];
    offline.on('request', (request) => requests.push(request.url()));
    await offline.goto(`file://${file}`);
    await offline.locator('#proof').fill(JSON.stringify(proof));
    await offline.locator('#headers').fill(JSON.stringify(snapshots.list));
    await offline.locator('#key').fill(snapshots.public_key);
    await offline.locator('#verify').click();
    await expectVerified(offline);
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);

    // a proof with one balance raised fails
    await offline
      .locator('#proof')
      .fill(JSON.stringify({ ...proof, balances: proof.balances.map((b) => `${BigInt(b) + 1n}`) }));
    await offline.locator('#verify').click();
    await offline.locator('#checks li.bad').waitFor();
    expect(await offline.locator('#checks li.bad').textContent()).toContain('root');
    await context.close();
  });
});
