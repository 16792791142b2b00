import type { SnapshotHeader } from '@bourse/por';
import { fromAtoms, toAtoms } from '@bourse/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentService } from '../src/modules/content/service.ts';
import { demoReserveEntries } from '../src/modules/reserves/demo-reserves.ts';
import { SettingsService } from '../src/modules/settings/service.ts';
import { demoReserveClaim } from '../src/seed.ts';
import { signInOwner, signInStaffRoles } from './delivery-harness.ts';
import { callAdmin, DIALECTS, startServer, type TestServer } from './harness.ts';

const HOUR = 3_600_000;

describe.each(DIALECTS)('announcements, help and pages on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let owner: string;
    let writer: string;
    let support: string;
    let finance: string;
    const admin = (method: 'GET' | 'POST', path: string, body?: Record<string, unknown>, token = writer) =>
      callAdmin(server, method, path, body, token);

    beforeAll(async () => {
      // no demo: the store starts empty, so every list below is exactly what the test wrote
      server = await startServer(name, { env: { ADMIN_USER: 'boss', ADMIN_PASSWORD: 'owner-pass-1' } });
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
      ({
        content: writer,
        support,
        finance,
      } = await signInStaffRoles(server, owner, ['content', 'support', 'finance'] as const));
    });
    afterAll(async () => {
      await server?.close();
    });

    it('publishes per locale with a ja-JP fallback, pinned first, from the publish time on', async () => {
      const now = server.clock.now();
      const older = await admin('POST', '/content', {
        kind: 'announcement',
        status: 'published',
        publishAt: now - 2 * HOUR,
        texts: {
          'ja-JP': {
            title: 'メンテナンスのお知らせ',
            body: '<p>日曜日に<strong>メンテナンス</strong>を行います。</p>',
          },
          'en-US': { title: 'Maintenance notice', body: '<p>Maintenance on <strong>Sunday</strong>.</p>' },
        },
      });
      expect(older.code).toBe(1000);
      const pinned = await admin('POST', '/content', {
        kind: 'announcement',
        status: 'published',
        pinned: true,
        publishAt: now - 3 * HOUR,
        texts: { 'ja-JP': { title: '新規上場', body: '<p>SOL が上場しました。</p>' } },
      });
      const future = await admin('POST', '/content', {
        kind: 'announcement',
        status: 'published',
        publishAt: now + 60_000,
        texts: { 'ja-JP': { title: '予告', body: '<p>明日</p>' } },
      });
      const draft = await admin('POST', '/content', {
        kind: 'announcement',
        status: 'draft',
        texts: { 'ja-JP': { title: '下書き', body: '<p>未公開</p>' } },
      });
      expect([pinned.code, future.code, draft.code]).toEqual([1000, 1000, 1000]);

      const english = await server.call('GET', '/Index/gglist', {}, { lang: 'en-us' });
      expect(english.data).toEqual({
        list: [
          {
            id: pinned.data.id,
            title: '新規上場',
            excerpt: 'SOL が上場しました。',
            pinned: true,
            published_at: now - 3 * HOUR,
          },
          {
            id: older.data.id,
            title: 'Maintenance notice',
            excerpt: 'Maintenance on Sunday.',
            pinned: false,
            published_at: now - 2 * HOUR,
          },
        ],
        page: 1,
        has_more: false,
      });
      const french = await server.call('GET', '/Index/gginfo', { id: older.data.id }, { lang: 'fr-fr' });
      expect(french.data).toMatchObject({
        title: 'メンテナンスのお知らせ',
        body_html: '<p>日曜日に<strong>メンテナンス</strong>を行います。</p>',
      });
      // a draft and an item before its publish time are not there for readers
      for (const hidden of [future, draft]) {
        const answer = await server.call('GET', '/Index/gginfo', { id: hidden.data.id }, { lang: 'en-us' });
        expect([answer.code, answer.msg]).toEqual([3024, 'The record does not exist.']);
      }
      expect((await server.call('GET', '/Index/marquee', {}, { lang: 'en-us' })).data).toEqual({
        item: { id: pinned.data.id, title: '新規上場' },
      });

      // (a minute: well inside the staff sessions' idle limit)
      await server.clock.advance(60_001);
      const later = await server.call('GET', '/Index/gglist', {}, { lang: 'ja-jp' });
      expect(later.data.list.map((item: { title: string }) => item.title)).toEqual([
        '新規上場',
        '予告',
        'メンテナンスのお知らせ',
      ]);
      // an announcement is not a help article, and a help id is not an announcement
      expect((await server.call('GET', '/Index/help', {})).data.list).toEqual([]);
      expect((await server.call('GET', '/Index/helpinfo', { id: older.data.id })).code).toBe(3024);
    });

    it('stores bodies sanitised: no script, handler, style or foreign frame survives', async () => {
      const written = await admin('POST', '/content', {
        kind: 'help',
        status: 'published',
        texts: {
          'ja-JP': {
            title: '安全な本文',
            body:
              '<p onclick="steal()">本文<script>alert(1)</script></p>' +
              '<img src="x" onerror="steal()"><img src="https://tracker.example/p.gif">' +
              '<img src="/Upload/public/a.png" alt="図">' +
              '<a href="javascript:steal()">悪</a><a href="https://example.com/x">良</a>' +
              '<iframe src="https://evil.example"></iframe><style>p{}</style>',
          },
        },
      });
      expect(written.code).toBe(1000);
      const read = await server.call('GET', '/Index/helpinfo', { id: written.data.id });
      expect(read.data.body_html).toBe(
        '<p>本文</p><img src="/Upload/public/a.png" alt="図" />' +
          '<a rel="noopener noreferrer" target="_blank">悪</a>' +
          '<a href="https://example.com/x" rel="noopener noreferrer" target="_blank">良</a>',
      );
      expect(written.data.texts['ja-JP'].body).toBe(read.data.body_html);
    });

    it('serves the about-us and MSB pages by name and refuses bad input with a translated error', async () => {
      const missing = await server.call('GET', '/Index/page', { slug: 'aboutus' }, { lang: 'en-us' });
      expect([missing.code, missing.msg]).toEqual([3024, 'The record does not exist.']);
      const page = await admin('POST', '/content', {
        kind: 'page',
        slug: 'aboutus',
        status: 'published',
        texts: {
          'ja-JP': { title: '会社概要', body: '<p>Bourse</p>' },
          'de-DE': { title: 'Über uns', body: '<p>Bourse</p>' },
        },
      });
      expect(page.code).toBe(1000);
      expect(
        (await server.call('GET', '/Index/page', { slug: 'aboutus' }, { lang: 'de-de' })).data.title,
      ).toBe('Über uns');
      const badSlug = await server.call('GET', '/Index/page', { slug: 'careers' }, { lang: 'en-us' });
      expect([badSlug.code, badSlug.msg]).toEqual([1001, 'Invalid parameters.']);

      const noJapanese = await admin('POST', '/content', {
        kind: 'announcement',
        status: 'published',
        texts: { 'en-US': { title: 'English only', body: '<p>x</p>' } },
      });
      expect([noJapanese.code, noJapanese.msg]).toEqual([
        2120,
        'A Japanese (ja-JP) title and text are required: readers without their own language see it.',
      ]);
      const longTitle = await admin('POST', '/content', {
        kind: 'announcement',
        status: 'published',
        texts: { 'ja-JP': { title: 'x'.repeat(201), body: '<p>x</p>' } },
      });
      expect([longTitle.code, longTitle.msg]).toEqual([2118, 'The title must be 1 to 200 characters.']);
      const unknownPage = await admin('POST', '/content', {
        kind: 'page',
        slug: 'careers',
        status: 'published',
        texts: { 'ja-JP': { title: 't', body: '' } },
      });
      expect(unknownPage.code).toBe(1001);
      const notAnId = await server.call('GET', '/Index/gginfo', { id: 'abc' }, { lang: 'en-us' });
      expect(notAnId.code).toBe(1001);
    });

    it('lets content staff and the owner write, support only read, and audits every change', async () => {
      const body = { kind: 'announcement', status: 'draft', texts: { 'ja-JP': { title: 't', body: '' } } };
      expect((await admin('POST', '/content', body, support)).code).toBe(6002);
      expect((await admin('POST', '/content', body, finance)).code).toBe(6002);
      expect((await admin('GET', '/content', undefined, finance)).code).toBe(6002);
      expect((await admin('GET', '/content', undefined, support)).code).toBe(1000);

      const created = await admin('POST', '/content', body, owner);
      expect(created.data).toMatchObject({ status: 'draft', author: 'boss' });
      const updated = await admin('POST', `/content/${created.data.id}`, {
        ...body,
        status: 'published',
        pinned: true,
      });
      expect(updated.data).toMatchObject({ status: 'published', pinned: true, author: 'boss' });
      expect((await admin('POST', `/content/${created.data.id}/delete`, undefined, support)).code).toBe(6002);
      expect((await admin('POST', `/content/${created.data.id}/delete`)).code).toBe(1000);
      expect((await admin('POST', `/content/${created.data.id}/delete`)).code).toBe(3024);

      const audit = await callAdmin(server, 'GET', '/audit', { target: `content:${created.data.id}` }, owner);
      expect(
        audit.data.map((row: { action: string; actor: string }) => `${row.action} ${row.actor}`),
      ).toEqual(['content.delete staff:2', 'content.update staff:2', 'content.create staff:1']);
    });

    it('states a reserve claim only while published proof of reserves backs it, and a leverage claim only while an open market offers that leverage', async () => {
      expect((await server.call('GET', '/Index/claims', {})).data).toEqual({
        leverage_max: '',
        reserve_btc: '',
      });
      const bad = await admin('POST', '/content-claims', { leverageMax: 'five', reserveBtc: '' });
      expect(bad.code).toBe(6007);
      const set = await admin('POST', '/content-claims', { leverageMax: '5', reserveBtc: '20000' });
      expect(set.data).toEqual({
        leverageMax: '5',
        reserveBtc: '20000',
        reserveEvidence: false,
        reserveSnapshotId: 0,
        reserveHeld: '',
        reserveWithheld: 'no_snapshot',
        leverageOffered: 0,
      });
      // no snapshot is published on this store, and no market offers leverage: both figures are
      // withheld from customers
      expect((await server.call('GET', '/Index/claims', {})).data).toEqual({
        leverage_max: '',
        reserve_btc: '',
      });
      // the same claims, read where open markets offer 3x, then 5x, and the latest published
      // snapshot holds exactly 20,000 BTC: shown only once it is true
      const { store, clock } = server.app.ctx;
      const withLeverage = (offered: number) =>
        new ContentService({
          db: store.db,
          clock,
          audit: server.app.ctx.audit,
          settings: new SettingsService({ db: store.db }),
          latestReserves: async () => ({ snapshotId: 7, reserveTotals: { BTC: '2000000000000' } }),
          leverageOffered: async () => offered,
        }).publicClaims();
      expect(await withLeverage(3)).toEqual({ leverageMax: '', reserveBtc: '20000' });
      expect(await withLeverage(5)).toEqual({ leverageMax: '5', reserveBtc: '20000' });
      const audit = await callAdmin(server, 'GET', '/audit', { target: 'settings:claims' }, owner);
      expect(audit.data[0]).toMatchObject({ action: 'content.claims', actor: 'staff:2' });
    });
  });
});

describe.each(DIALECTS)('reserve claims against the proof of reserves on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let owner: string;
    const setReserveClaim = (reserveBtc: string) =>
      callAdmin(server, 'POST', '/content-claims', { leverageMax: '5', reserveBtc }, owner);
    const shownClaim = async () => (await server.call('GET', '/Index/claims', {})).data.reserve_btc;

    beforeAll(async () => {
      // the demo publishes a snapshot at start whose simulated reserves hold 105 % of its liabilities
      server = await startServer(name, {
        env: { DEMO: 'on', ADMIN_USER: 'boss', ADMIN_PASSWORD: 'owner-pass-1' },
      });
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
    });
    afterAll(async () => {
      await server?.close();
    });

    it('withholds a claim of more BTC than the latest published snapshot holds, says why to staff, and shows it once a snapshot covers it', async () => {
      const reserves = server.app.ctx.reserves;
      if (!reserves) throw new Error('the demo runs the reserves module');
      const [first] = (await server.call('GET', '/por/snapshots', {})).data.list as SnapshotHeader[];
      if (!first?.reserve_totals.BTC) throw new Error('the demo snapshot holds BTC');
      const held = BigInt(first.reserve_totals.BTC);

      // the demo claims BTC its proof covers: four fifths of the reserve, in whole BTC
      const demoClaim = await callAdmin(server, 'GET', '/content-claims', undefined, owner);
      expect(demoClaim.data.reserveBtc).toBe(demoReserveClaim(first.reserve_totals.BTC));
      expect(demoClaim.data.reserveBtc).toBe(String((held * 4n) / 5n / 100_000_000n));
      expect(toAtoms(demoClaim.data.reserveBtc) <= held).toBe(true);
      expect(demoClaim.data.reserveWithheld).toBe('');
      expect(await shownClaim()).toBe(demoClaim.data.reserveBtc);

      // one atom more than the reserve: withheld, and staff see why
      const over = await setReserveClaim(fromAtoms(held + 1n));
      expect(over.code).toBe(1000);
      expect(over.data).toMatchObject({
        reserveBtc: fromAtoms(held + 1n),
        reserveEvidence: true,
        reserveSnapshotId: first.snapshot_id,
        reserveHeld: fromAtoms(held),
        reserveWithheld: 'not_covered',
      });
      expect(await shownClaim()).toBe('');
      // exactly the reserve: shown
      expect((await setReserveClaim(fromAtoms(held))).data.reserveWithheld).toBe('');
      expect(await shownClaim()).toBe(fromAtoms(held));

      // the spec's 20,000 BTC: the proof shows far less, so customers do not see it
      expect((await setReserveClaim('20000')).data).toMatchObject({
        reserveHeld: fromAtoms(held),
        reserveWithheld: 'not_covered',
      });
      expect(await shownClaim()).toBe('');

      // a newer snapshot whose signed reserves hold 20,000 BTC covers it
      const now = server.clock.now();
      const covering = await reserves.service.takeSnapshot(now - (now % 1000) + 1000, now);
      const [pending] = await reserves.service.listForStaff(1);
      if (pending?.id !== covering) throw new Error('the new snapshot is pending');
      const [btc] = await demoReserveEntries({
        message: pending.message,
        liabilities: new Map([['BTC', 1n]]),
      });
      if (!btc) throw new Error('a BTC reserve entry');
      await reserves.service.addReserve({ actor: 'staff:1', ip: '127.0.0.1' }, covering, {
        ...btc,
        balance: 2_000_000_000_000n,
      });
      expect(await reserves.service.publish({ upTo: covering })).toBe(1);
      expect((await callAdmin(server, 'GET', '/content-claims', undefined, owner)).data).toMatchObject({
        reserveBtc: '20000',
        reserveSnapshotId: Number(covering),
        reserveHeld: '20000.00000000',
        reserveWithheld: '',
      });
      expect(await shownClaim()).toBe('20000');

      // the latest published snapshot is what counts: one without reserve entries withholds it again
      const bare = await reserves.service.takeSnapshot(now - (now % 1000) + 2000, now);
      expect(await reserves.service.publish({ upTo: bare })).toBe(1);
      expect((await callAdmin(server, 'GET', '/content-claims', undefined, owner)).data).toMatchObject({
        reserveSnapshotId: Number(bare),
        reserveHeld: '0.00000000',
        reserveWithheld: 'not_covered',
      });
      expect(await shownClaim()).toBe('');
    });
  });
});

describe('demo content', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', { env: { DEMO: 'on' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('seeds pinned and plain announcements, both pages, help and the backed claims in every language', async () => {
    const list = await server.call('GET', '/Index/gglist', {}, { lang: 'ko-kr' });
    expect(
      list.data.list.map((item: { title: string; pinned: boolean }) => [item.title, item.pinned]),
    ).toEqual([
      ['Bourse 데모에 오신 것을 환영합니다', true],
      ['2단계 인증으로 계정을 보호하세요', false],
    ]);
    expect((await server.call('GET', '/Index/help', {}, { lang: 'tr-tr' })).data.list).toHaveLength(3);
    expect((await server.call('GET', '/Index/page', { slug: 'msb' }, { lang: 'it-it' })).data.title).toBe(
      'Registrazione MSB',
    );
    // the demo publishes a proof-of-reserves snapshot at start and claims the BTC its reserves
    // hold, so the reserve claim is backed; its perpetual markets are open at up to 5x, so the
    // leverage claim is shown too
    const [header] = (await server.call('GET', '/por/snapshots', {})).data.list as SnapshotHeader[];
    const demoClaim = demoReserveClaim(header?.reserve_totals.BTC);
    expect(demoClaim).toMatch(/^[1-9]\d*$/);
    expect((await server.call('GET', '/Index/claims', {})).data).toEqual({
      leverage_max: '5',
      reserve_btc: demoClaim,
    });
  });

  it('shows the leverage claim only while a perpetual market is open', async () => {
    const backOffice = server.app.ctx.perpetual!.backOffice;
    const staff = { staffId: 1n, username: 'boss', actor: 'staff:1', ip: '127.0.0.1' };
    await backOffice.editMarket(staff, 'BTCUSDT', { status: 'halted' }, 'claims test');
    expect((await server.call('GET', '/Index/claims', {})).data.leverage_max).toBe('5');
    await backOffice.editMarket(staff, 'ETHUSDT', { status: 'halted' }, 'claims test');
    expect((await server.call('GET', '/Index/claims', {})).data.leverage_max).toBe('');
    await backOffice.editMarket(staff, 'ETHUSDT', { status: 'open' }, 'claims test');
    expect((await server.call('GET', '/Index/claims', {})).data.leverage_max).toBe('5');
    await backOffice.editMarket(staff, 'BTCUSDT', { status: 'open' }, 'claims test');
  });

  it('keeps the reserve claim and the published headers while a newer snapshot waits to be published', async () => {
    const reserves = server.app.ctx.reserves;
    if (!reserves) throw new Error('the demo runs the reserves module');
    const before = (await server.call('GET', '/por/snapshots', {})).data.list;
    expect(before).toHaveLength(1);
    // what the daily job does at 00:00 UTC: a snapshot published only later
    const now = Date.now();
    await reserves.service.takeSnapshot(now - (now % 1000) + 1000, now + 3_600_000);
    const staffView = await reserves.service.listForStaff();
    expect(staffView.map((s) => s.status)).toEqual(['pending', 'published']);

    expect((await server.call('GET', '/por/snapshots', {})).data.list).toEqual(before);
    expect((await server.call('GET', '/Index/claims', {})).data).toEqual({
      leverage_max: '5',
      reserve_btc: demoReserveClaim((before as SnapshotHeader[])[0]?.reserve_totals.BTC),
    });
  });

  it("takes each day's demo snapshot with simulated reserves, so the demo's claim stays covered", async () => {
    const reserves = server.app.ctx.reserves;
    if (!reserves) throw new Error('the demo runs the reserves module');
    const [first] = (await server.call('GET', '/por/snapshots', {})).data.list as SnapshotHeader[];
    await reserves.service.runDaily({ demo: true });
    const [today] = (await server.call('GET', '/por/snapshots', {})).data.list as SnapshotHeader[];
    expect(today?.snapshot_id).toBeGreaterThan(first?.snapshot_id ?? 0);
    expect(today?.reserves.map((r) => [r.asset, r.simulated])).toEqual([
      ['BTC', true],
      ['ETH', true],
      ['USDT', true],
    ]);
    expect(today?.reserve_totals.BTC).toBe(first?.reserve_totals.BTC);
    expect((await server.call('GET', '/Index/claims', {})).data.reserve_btc).toBe(
      demoReserveClaim(first?.reserve_totals.BTC),
    );
  });
});
