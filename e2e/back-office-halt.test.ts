import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newDesktopContext, type Platform, startPlatform } from './harness.ts';
import { adminText, enrolOwnerInBackOffice, lookup } from './page-helpers.ts';

const ADMIN_USER = 'owner';
const ADMIN_PASSWORD = 'Vault-Owner-7319-kestrel';
const serverEnglish = (key: string) => lookup('packages/i18n/resources/server/en-US.json', key);

/** The text of the back office's newest message (antd's message), once it shows. */
async function messageAfter(page: Page, action: () => Promise<unknown>): Promise<string> {
  const before = await page.locator('.ant-message-notice').count();
  await action();
  const notice = page.locator('.ant-message-notice').nth(before);
  await notice.waitFor({ state: 'visible', timeout: 10_000 });
  return ((await notice.textContent()) ?? '').trim();
}

describe('back office: a failed ledger check halts the platform until the owner clears it', () => {
  let platform: Platform;
  let browser: Browser;
  let staff: Page;

  /** Runs `sql` on the platform's store, as corruption outside the ledger's code would. */
  function write(sql: string) {
    const db = new SQLite(path.join(platform.dataDir, 'bourse.sqlite'));
    db.pragma('busy_timeout = 5000');
    db.prepare(sql).run();
    db.close();
  }

  beforeAll(async () => {
    [platform, browser] = await Promise.all([
      startPlatform({ env: { DEMO: 'on', ADMIN_USER, ADMIN_PASSWORD } }),
      launchChromium(),
    ]);
    staff = await (await newDesktopContext(browser)).newPage();
    await enrolOwnerInBackOffice(staff, platform.url, ADMIN_USER, ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  it('shows the halt after a check finds a stray balance, refuses to clear it while broken, then clears it', async () => {
    await staff.getByText(adminText('dashboard.ledgerOk')).waitFor({ state: 'visible' });
    write(
      "insert into ledger_accounts (owner, user_id, asset, kind, balance) values ('system:stray', null, 'USDT', 'available', 5)",
    );
    await staff.getByRole('button', { name: adminText('dashboard.checkNow') }).click();
    const banner = staff
      .locator('.ant-alert-error')
      .filter({ hasText: adminText('dashboard.haltReason.ledger') });
    await banner.waitFor({ state: 'visible' });
    expect(await banner.textContent()).toContain('system:stray');

    const resume = async (reason: string) => {
      await banner.getByRole('button', { name: adminText('dashboard.resume') }).click();
      const dialog = staff.getByRole('dialog');
      await dialog.locator('textarea').fill(reason);
      return messageAfter(staff, () =>
        dialog.getByRole('button', { name: adminText('common.submit') }).click(),
      );
    };
    expect(await resume('looks fine')).toBe(serverEnglish('errors.LEDGER_CHECK_FAILED'));
    await staff.getByRole('button', { name: adminText('common.cancel') }).click();
    expect(await banner.isVisible()).toBe(true);

    write("delete from ledger_accounts where owner = 'system:stray'");
    expect(await resume('stray balance removed')).toBe(adminText('dashboard.resumed'));
    await banner.waitFor({ state: 'detached' });
  });
});
