import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAdmin, type TestServer } from '../apps/server/test/harness.ts';
import {
  chain,
  DAY_MS,
  fundUsdt,
  join,
  type Member,
  openProject,
  runJobsAt,
  startLaunchpadServer,
  subscribe,
  verifyUser,
} from '../apps/server/test/launchpad-harness.ts';
import { launchChromium, newDesktopContext } from './harness.ts';
import { adminText, input, phoneSignedIn, SCREENS, settled, waitForHash, webText } from './page-helpers.ts';

const HOUR_MS = 3_600_000;

/**
 * The launchpad end to end at phone size, on a server whose clock the test moves: a funded user
 * subscribes and sees the record frozen; the window closes, allocation and refund appear; the lock
 * ends and the coin is theirs; the inviter sees the reward and opens the agent centre.
 */
describe('launchpad at phone size', () => {
  let server: TestServer;
  let staff: Awaited<ReturnType<typeof startLaunchpadServer>>['staff'];
  let browser: Browser;
  let context: BrowserContext;
  let phone: Page;
  let inviter: Member;
  let buyer: Member;
  let projectId: string;
  let end: number;

  async function signIn(member: Member) {
    await context?.close();
    ({ context, page: phone } = await phoneSignedIn(browser, member));
  }

  beforeAll(async () => {
    [{ server, staff }, browser] = await Promise.all([startLaunchpadServer('sqlite'), launchChromium()]);
    fs.mkdirSync(SCREENS, { recursive: true });
    [inviter, buyer] = await chain(server, staff.compliance, ['lp_inviter', 'lp_buyer']);
    await fundUsdt(server, buyer, '5000');
    end = server.clock.now() + 6 * HOUR_MS;
    projectId = await openProject(server, staff, {
      name: 'Newton Labs',
      coin: 'NEWT',
      mode: 'pro_rata',
      endAt: end,
      totalIssue: '10000',
      price: '0.5',
      lockDays: 2,
      perMin: '100',
      perMax: '10000',
      individualLimit: '6000',
    });
    // someone else wants 8,000 of the 10,000
    const other = await join(server, 'lp_other');
    await verifyUser(server, other, staff.compliance);
    await fundUsdt(server, other, '4000');
    expect((await subscribe(server, other.token, projectId, '8000')).code).toBe(1000);
    await signIn(buyer);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists the projects with state, countdown and progress', async () => {
    await phone.goto(`${server.url}/#/Issue/index`);
    const card = phone.getByTestId('project-NEWT');
    await card.waitFor();
    expect(await phone.getByTestId('state-NEWT').textContent()).toBe(webText('launchpad.state.open'));
    expect(await phone.getByTestId('state-LUMA').textContent()).toBe(webText('launchpad.state.not_started'));
    expect(await phone.getByTestId('state-NOVA').textContent()).toBe(webText('launchpad.state.closed'));
    expect(await card.getByTestId(`progress-${projectId}`).textContent()).toContain('80.00%');
    await expect
      .poll(() => card.getByTestId(`countdown-${projectId}`).textContent())
      .toMatch(/5:59:5\d|6:00:00/);
    // spec §2: a white page
    expect(await phone.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      'rgb(255, 255, 255)',
    );
    await settled(phone);
    await phone.screenshot({ path: path.join(SCREENS, 'issue-index.png') });
  });

  it('explains the rule with this project’s numbers, prices the request and subscribes; the record is frozen', async () => {
    await phone.getByTestId('project-NEWT').click();
    await waitForHash(phone, `#/Issue/details?id=${projectId}`);
    await input(phone, 'subscribe-quantity').fill('8000');
    // 8,000 more on 8,000 asked of 10,000: 5,000 expected for 2,500 USDT, 1,500 back
    await expect.poll(() => phone.getByTestId('subscribe-expected').textContent()).toContain('5,000');
    expect(await phone.getByTestId('subscribe-cost').textContent()).toContain('4,000.00 USDT');
    expect(await phone.getByTestId('worked-example').textContent()).toContain('1,500.00 USDT');
    expect(await phone.getByTestId('subscribe-available').textContent()).toContain('5,000.00 USDT');
    await settled(phone);
    await phone.screenshot({ path: path.join(SCREENS, 'issue-details.png'), fullPage: true });
    await phone.getByTestId('subscribe-submit').click();
    await phone.getByTestId('subscribe-confirm').click();
    await phone.getByTestId('my-subscription').waitFor();
    expect(await phone.getByTestId('subscribe-done').isVisible()).toBe(true);

    await phone.goto(`${server.url}/#/Issue/issuelog`);
    const list = phone.getByTestId('record-list');
    await list.waitFor();
    const status = list.locator('[data-testid^="record-status-"]').first();
    expect(await status.textContent()).toBe(
      `${webText('launchpad.recordStatus.frozen')} · ${webText('launchpad.awaitingAllocation')}`,
    );
  });

  it('after the window closes shows the allocation and the refund; after the lock the coin is available', async () => {
    await runJobsAt(server, end);
    await phone.reload();
    const first = phone.locator('article.lp-record').first();
    await first.waitFor();
    const id = (await first.getAttribute('data-testid'))?.replace('record-', '');
    await expect.poll(() => phone.getByTestId(`record-quantity-${id}`).textContent()).toContain('5,000');
    expect(await phone.getByTestId(`record-paid-${id}`).textContent()).toContain('2,500.00 USDT');
    expect(await phone.getByTestId(`record-refunded-${id}`).textContent()).toContain('1,500.00 USDT');
    expect(await phone.getByTestId(`record-status-${id}`).textContent()).toBe(
      webText('launchpad.recordStatus.frozen'),
    );
    await settled(phone);
    await phone.screenshot({ path: path.join(SCREENS, 'issue-log.png') });

    await runJobsAt(server, end + 2 * DAY_MS);
    await phone.reload();
    await expect
      .poll(() => phone.getByTestId(`record-status-${id}`).textContent())
      .toBe(webText('launchpad.recordStatus.thawed'));
    await phone.goto(`${server.url}/#/User/coininfo?coin=NEWT`);
    await expect.poll(() => phone.locator('body').textContent()).toContain('5,000');
  });

  it('shows the inviter the reward, and the agent centre once staff approve', async () => {
    await signIn(inviter);
    await phone.goto(`${server.url}/#/Index/tgcode`);
    const rewards = phone.getByTestId('invite-rewards');
    await rewards.waitFor();
    // 3 % of the 2,500 USDT the buyer paid
    await expect.poll(() => rewards.textContent()).toContain('75.00 USDT');
    expect(await rewards.textContent()).toContain(webText('invite.rewards.status.paid'));

    await phone.getByTestId('invite-agent-link').click();
    await waitForHash(phone, '#/Agent/index');
    await phone.getByTestId('agent-apply').click();
    await expect
      .poll(() => phone.getByTestId('agent-state').textContent())
      .toBe(webText('launchpad.agent.state.pending'));
    const decided = await callAdmin(
      server,
      'POST',
      `/agents/${inviter.uid}/decision`,
      { decision: 'approve', note: 'e2e' },
      staff.compliance,
    );
    expect(decided.code).toBe(1000);
    await phone.reload();
    await phone.getByTestId('agent-members').waitFor();
    expect(await phone.getByTestId('agent-counts').textContent()).toContain('1');
    expect(await phone.getByTestId('agent-members').textContent()).toContain('lp***r');
    expect(await phone.getByTestId('agent-rewards').textContent()).toContain('75.00 USDT');
    await settled(phone);
    await phone.screenshot({ path: path.join(SCREENS, 'agent-centre.png'), fullPage: true });
  });

  it('back office: projects with progress from the records, and the referral programme behind its legal warning', async () => {
    const desk = await newDesktopContext(browser);
    await desk.addInitScript((token) => sessionStorage.setItem('bourse.admin.token', token), staff.owner);
    const staffPage = await desk.newPage();
    await staffPage.goto(`${server.url}/admin/#/launchpad`);
    const row = staffPage.getByRole('row').filter({ hasText: 'Newton Labs (NEWT)' });
    await row.waitFor();
    expect(await row.textContent()).toContain(adminText('launchpad.states.closed'));
    expect(await row.textContent()).toContain('100.00% (10000)');
    await settled(staffPage);
    await staffPage.screenshot({ path: path.join(SCREENS, 'back-office-launchpad.png') });
    await staffPage.getByRole('tab', { name: adminText('launchpad.tabs.referral') }).click();
    await staffPage.getByText(adminText('launchpad.legalTitle')).waitFor();
    await desk.close();
  });
});
