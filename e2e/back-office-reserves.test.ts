import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newDesktopContext, type Platform, startPlatform } from './harness.ts';
import { adminText, enrolOwnerInBackOffice, SCREENS } from './page-helpers.ts';

const ADMIN_USER = 'owner';
const ADMIN_PASSWORD = 'Vault-Owner-7319-kestrel';

describe('back office: proof of reserves (desktop, demo)', () => {
  let platform: Platform;
  let browser: Browser;
  let staff: Page;

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startPlatform({ env: { DEMO: 'on', ADMIN_USER, ADMIN_PASSWORD } }),
      launchChromium(),
    ]);
    staff = await (await newDesktopContext(browser)).newPage();
    fs.mkdirSync(SCREENS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('shows the published demo snapshot, its signed simulated entries and the key fingerprint', async () => {
    await enrolOwnerInBackOffice(staff, platform.url, ADMIN_USER, ADMIN_PASSWORD);
    await staff.getByRole('menuitem', { name: adminText('menu.reserves') }).click();
    await staff.waitForFunction(() => location.hash === '#/reserves', null, { timeout: 10_000 });
    const published = (await (await fetch(`${platform.url}/apiv/por/snapshots`)).json()) as {
      data: { fingerprint: string; list: { snapshot_id: number; reserves: unknown[] }[] };
    };
    await staff.getByTestId('reserves-fingerprint').waitFor();
    expect(await staff.getByTestId('reserves-fingerprint').textContent()).toBe(
      adminText('reserves.fingerprint', { fingerprint: published.data.fingerprint }),
    );
    // why: the published snapshot's own row, by its id: a snapshot the platform takes meanwhile
    // (pending, no entries yet) can come first in the list and take the first row's place.
    const id = published.data.list[0]?.snapshot_id;
    const row = staff.locator(`tr.ant-table-row[data-row-key="${id}"]`);
    await row.waitFor();
    expect(await row.locator('.ant-tag').first().textContent()).toBe(
      adminText('reserves.statuses.published'),
    );
    const opened = staff.locator(`tr.ant-table-row[data-row-key="${id}"] + tr.ant-table-expanded-row`);
    const entries = opened.locator('tr.ant-table-row');
    // why: on a loaded machine the first click can land while the table re-renders with the
    // fetched list and be lost; click again until the row is open.
    await expect
      .poll(
        async () => {
          if ((await opened.count()) === 0) await row.locator('.ant-table-row-expand-icon').click();
          return entries.count();
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    expect(await entries.count()).toBe(published.data.list[0]?.reserves.length);
    expect(await entries.first().textContent()).toContain(adminText('reserves.simulated'));
    await staff.screenshot({ path: path.join(SCREENS, 'back-office-reserves.png'), fullPage: true });
  });
});
