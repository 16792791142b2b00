import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  type InclusionProof,
  type SnapshotHeader,
  verifyChain,
  verifyHeader,
  verifyProof,
} from '@bourse/por';
import { verifyReserveSignature } from '@bourse/por/reserve-signatures';
import fc from 'fast-check';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../packages/shared/test/property-runs.ts';
import { COUNTED_KINDS, TRIAL_KINDS } from '../src/modules/reserves/counted-balances.ts';
import { enrolStaff, indexTick, signInOwner } from './delivery-harness.ts';
import { callAdmin, DIALECTS, registerAndLogin, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const DAY_MS = 86_400_000;
const CLI = path.resolve(import.meta.dirname, '../../../packages/por/src/cli.ts');

/** Each user's counted balances per asset, and the trial totals, straight from the ledger. */
async function ledgerView(server: TestServer) {
  const rows = await server.app.ctx.store.db
    .selectFrom('ledger_accounts')
    .select(['user_id', 'asset', 'kind', 'balance'])
    .where('user_id', 'is not', null)
    .execute();
  const users = new Map<bigint, Map<string, bigint>>();
  const totals = new Map<string, bigint>();
  const trial = new Map<string, bigint>();
  for (const row of rows) {
    if (row.balance === 0n) continue;
    if ((TRIAL_KINDS as readonly string[]).includes(row.kind)) {
      trial.set(row.asset, (trial.get(row.asset) ?? 0n) + row.balance);
    } else if ((COUNTED_KINDS as readonly string[]).includes(row.kind)) {
      const user = users.get(row.user_id as bigint) ?? new Map<string, bigint>();
      user.set(row.asset, (user.get(row.asset) ?? 0n) + row.balance);
      users.set(row.user_id as bigint, user);
      totals.set(row.asset, (totals.get(row.asset) ?? 0n) + row.balance);
    }
  }
  return { users, totals, trial };
}

describe.each(DIALECTS)('proof of reserves on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let demo: { token: string; uid: number };
    let key: string;

    beforeAll(async () => {
      server = await startServer(name, { env: { DEMO: 'on', LIMIT_REGISTER_PER_IP: '1000/3600' } });
      const login = await server.call('POST', '/Login/loginsubmit', { email: 'demo', lpwd: 'demo1234' });
      demo = { token: login.data.token, uid: login.data.uid };
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('publishes a signed snapshot at the first demo start whose root sums are the ledger’s user totals', async () => {
      const answer = await server.call('GET', '/por/snapshots');
      expect(answer.code).toBe(1000);
      key = answer.data.public_key;
      expect(answer.data.fingerprint).toMatch(/^([0-9a-f]{4} ){15}[0-9a-f]{4}$/);
      const [header] = answer.data.list as SnapshotHeader[];
      if (!header) throw new Error('no snapshot');
      await verifyHeader(header, key, null);
      const { totals, trial } = await ledgerView(server);
      expect(header.assets).toEqual([...totals.keys()].sort());
      expect(header.root_sums).toEqual(header.assets.map((asset) => String(totals.get(asset))));
      // why: trial money is never withdrawable: on its own line, never in the tree.
      expect(Object.keys(header.trial_total).length).toBeGreaterThan(0);
      expect(header.trial_total).toEqual(Object.fromEntries([...trial].map(([a, v]) => [a, String(v)])));
      expect([header.leaf_count, header.depth]).toEqual([1024, 10]);
      // why: the demo's reserves are simulated, signed by the demo keys over this snapshot's message, and marked so.
      expect(header.reserves.map((r) => [r.asset, r.chain, r.scheme, r.simulated])).toEqual([
        ['BTC', 'bitcoin', 'bip322', true],
        ['ETH', 'ethereum', 'eip191', true],
        ['USDT', 'ethereum', 'eip191', true],
      ]);
      for (const entry of header.reserves) {
        expect(entry.message).toBe(`Bourse reserves snapshot ${header.snapshot_id} root ${header.root}`);
        expect(await verifyReserveSignature({ ...entry, chain: entry.chain as 'bitcoin' })).toBe(true);
        const liability = BigInt(header.root_sums[header.assets.indexOf(entry.asset)] as string);
        expect(entry.balance).toBe(String((liability * 105n) / 100n));
        expect(header.reserve_totals[entry.asset]).toBe(entry.balance);
        const scaled = (BigInt(entry.balance) * 10_000n) / liability;
        expect(header.ratios[entry.asset]).toBe(
          `${scaled / 10_000n}.${(scaled % 10_000n).toString().padStart(4, '0')}`,
        );
      }
      expect(Object.keys(header.ratios).sort()).toEqual(['BTC', 'ETH', 'USDT']);
    });

    it('gives the caller their own proof, which verifies and matches their ledger balances', async () => {
      const [header] = (await server.call('GET', '/por/snapshots')).data.list as SnapshotHeader[];
      const answer = await server.call('GET', '/por/proof', {}, { token: demo.token });
      expect(answer.code).toBe(1000);
      const proof = answer.data as InclusionProof;
      expect(proof.user_id).toBe(demo.uid);
      const balances = await verifyProof(proof, header as SnapshotHeader);
      const mine = (await ledgerView(server)).users.get(BigInt(demo.uid));
      expect(balances).toEqual((header as SnapshotHeader).assets.map((asset) => mine?.get(asset) ?? 0n));
      // the statement at the snapshot's ledger sequence, from the postings, says the same
      const statement = await server.call('GET', '/por/statement', {}, { token: demo.token });
      expect(statement.data).toEqual({
        snapshot_id: proof.snapshot_id,
        ledger_seq: (header as SnapshotHeader).ledger_seq,
        assets: (header as SnapshotHeader).assets,
        balances: balances.map(String),
      });
    });

    it('answers a user with nothing counted, and a snapshot that does not exist, with their messages', async () => {
      const fresh = await registerAndLogin(server);
      expect(await server.call('GET', '/por/proof', {}, { token: fresh.token, lang: 'en-us' })).toMatchObject(
        {
          code: 8902,
          msg: 'You held no counted balance at that snapshot.',
        },
      );
      expect(
        (
          await server.call(
            'GET',
            '/por/proof',
            { snapshot_id: '999999' },
            { token: demo.token, lang: 'en-us' },
          )
        ).code,
      ).toBe(8901);
      expect((await server.call('GET', '/por/proof', { snapshot_id: 'x' }, { token: demo.token })).code).toBe(
        1001,
      );
      expect((await server.call('GET', '/por/proof', {})).code).toBe(100);
    });

    it('takes the 00:00 UTC snapshot once, chained to the one before, and keeps the older proof', async () => {
      const service = server.app.ctx.reserves!.service;
      // money moves between the snapshots (available → frozen, still counted)
      await indexTick(server, 'BTCUSDT', '50000');
      const moved = await server.call(
        'POST',
        '/Contract/place',
        { symbol: 'BTCUSDT', direction: 'up', period: '60', amount: '10', idempotency_key: 'por-contract-1' },
        { token: demo.token },
      );
      const now = server.clock.now();
      await server.clock.advance(DAY_MS - (now % DAY_MS) + 5_000);
      expect(moved.code).toBe(1000);
      await service.runDaily();
      await service.runDaily();
      // taken at 00:00, pending for an hour while staff attach reserve entries, then published
      expect((await server.call('GET', '/por/snapshots')).data.list).toHaveLength(1);
      await server.clock.advance(60 * 60_000);
      await service.runDaily();
      const headers = ((await server.call('GET', '/por/snapshots')).data.list as SnapshotHeader[]).reverse();
      expect(headers).toHaveLength(2);
      expect(headers[1]?.taken_at).toBe(
        new Date(now - (now % DAY_MS) + DAY_MS).toISOString().replace('.000Z', 'Z'),
      );
      expect([headers[1]?.reserves, headers[1]?.ratios]).toEqual([[], {}]);
      await verifyChain(headers, key);
      for (const header of headers) {
        const proof = await server.call(
          'GET',
          '/por/proof',
          { snapshot_id: header.snapshot_id },
          { token: demo.token },
        );
        expect(proof.code).toBe(1000);
        const balances = await verifyProof(proof.data, header);
        // the statement at each snapshot's ledger sequence, from the postings, says the same
        const statement = await server.call(
          'GET',
          '/por/statement',
          { snapshot_id: header.snapshot_id },
          { token: demo.token },
        );
        expect(statement.data.balances).toEqual(balances.map(String));
      }
    });

    it('the command line for third parties checks the chain, every reserve signature and a proof', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-por-cli-'));
      try {
        const snapshots = await server.call('GET', '/por/snapshots');
        const proof = await server.call('GET', '/por/proof', {}, { token: demo.token });
        fs.writeFileSync(path.join(dir, 'headers.json'), JSON.stringify(snapshots));
        fs.writeFileSync(path.join(dir, 'proof.json'), JSON.stringify(proof));
        const run = (headers: string) =>
          spawnSync(
            process.execPath,
            [
              CLI,
              'verify',
              '--headers',
              headers,
              '--key',
              snapshots.data.public_key,
              '--proof',
              path.join(dir, 'proof.json'),
            ],
            { encoding: 'utf8' },
          );
        const ok = run(path.join(dir, 'headers.json'));
        expect(ok.status).toBe(0);
        expect(ok.stdout).toContain('all checks hold');
        expect(
          ok.stdout.match(/^ok {3}snapshot \d+: \w+ .* signed \((bip322|eip191)\), simulated$/gm),
        ).toHaveLength(3);

        // a reserve balance raised after signing: its header signature and the totals fail
        const forged = structuredClone(snapshots.data);
        forged.list[forged.list.length - 1].reserves[0].balance = '1';
        fs.writeFileSync(path.join(dir, 'forged.json'), JSON.stringify(forged));
        const bad = run(path.join(dir, 'forged.json'));
        expect(bad.status).toBe(1);
        expect(bad.stdout).toContain('FAIL snapshot');
        expect(bad.stdout).toContain('reserve total differs');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('limits proof downloads per session: a burst of 40 gets exactly 30', async () => {
      const user = await registerAndLogin(server);
      const answers = await Promise.all(
        Array.from({ length: 40 }, () => server.call('GET', '/por/proof', {}, { token: user.token })),
      );
      // why: the user holds nothing, so every answer within the limit is "not included".
      expect(answers.filter((a) => a.code === 8902)).toHaveLength(30);
      expect(answers.filter((a) => a.code === 1004)).toHaveLength(10);
    });
  });
});

describe.each(DIALECTS)('proof-of-reserves back office on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let owner = '';
    let finance = '';
    let support = '';
    let pendingId = 0;
    const evm = privateKeyToAccount(`0x${'42'.repeat(32)}`);
    const admin = (method: 'GET' | 'POST', path: string, body?: Record<string, unknown>, token = owner) =>
      callAdmin(server, method, path, body, token);

    beforeAll(async () => {
      server = await startServer(name, {
        env: {
          DEMO: 'on',
          ADMIN_USER: 'boss',
          ADMIN_PASSWORD: 'owner-pass-1',
          LIMIT_REGISTER_PER_IP: '1000/3600',
        },
      });
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
      for (const role of ['finance', 'support'] as const) {
        expect(
          (await admin('POST', '/staff', { username: `${role}1`, password: 'initial-pass', role })).code,
        ).toBe(1000);
      }
      finance = await enrolStaff(server, 'finance1', 'initial-pass', 'finance-pass-2');
      support = await enrolStaff(server, 'support1', 'initial-pass', 'support-pass-2');
      // a pending snapshot: taken now, published in an hour
      pendingId = Number(await server.app.ctx.reserves!.service.takeSnapshot(server.clock.now() + 1));
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('lists pending and published snapshots with the message to sign; support staff are refused', async () => {
      const answer = await admin('GET', '/reserves/snapshots', undefined, finance);
      expect(answer.code).toBe(1000);
      const [pending, published] = answer.data.list;
      expect([pending.id, pending.status, published.status]).toEqual([pendingId, 'pending', 'published']);
      expect(pending.message).toBe(`Bourse reserves snapshot ${pendingId} root ${pending.root}`);
      expect(answer.data.fingerprint).toBe((await server.call('GET', '/por/snapshots')).data.fingerprint);
      expect((await admin('GET', '/reserves/snapshots', undefined, support)).code).toBe(6002);
    });

    it('attaches an entry whose signature verifies, refuses the others, publishes with the ratio, all audited', async () => {
      const [pending] = (await admin('GET', '/reserves/snapshots')).data.list;
      const usdt = BigInt(pending.rootSums[pending.assets.indexOf('USDT')]);
      const entry = {
        asset: 'USDT',
        chain: 'ethereum',
        address: evm.address,
        balance: '6000000',
        height: 23_100_000,
        blockHash: `0x${'ab'.repeat(32)}`,
        sig: await evm.signMessage({ message: pending.message }),
      };
      const wrongKey = privateKeyToAccount(`0x${'43'.repeat(32)}`);
      const refused = [
        [{ ...entry, sig: await wrongKey.signMessage({ message: pending.message }) }, 8905],
        [{ ...entry, sig: await evm.signMessage({ message: `${pending.message} ` }) }, 8905],
        [{ ...entry, asset: 'ZZZ' }, 8904],
        [{ ...entry, chain: 'tron' }, 8905],
        [{ ...entry, balance: '-5' }, 6007],
      ] as const;
      for (const [body, code] of refused) {
        expect((await admin('POST', `/reserves/snapshots/${pendingId}/entries`, body, finance)).code).toBe(
          code,
        );
      }
      expect((await admin('POST', `/reserves/snapshots/${pendingId}/entries`, entry, support)).code).toBe(
        6002,
      );
      const added = await admin('POST', `/reserves/snapshots/${pendingId}/entries`, entry, finance);
      expect(added).toMatchObject({
        code: 1000,
        data: { asset: 'USDT', balance: '600000000000000', scheme: 'eip191' },
      });
      expect((await admin('POST', `/reserves/snapshots/${pendingId}/entries`, entry, finance)).code).toBe(
        8906,
      );

      const published = await admin('POST', `/reserves/snapshots/${pendingId}/publish`, {}, finance);
      expect(published).toMatchObject({ code: 1000, data: { published: 1 } });
      expect((await admin('POST', `/reserves/snapshots/${pendingId}/entries`, entry, finance)).code).toBe(
        8903,
      );
      const [header] = (await server.call('GET', '/por/snapshots')).data.list as SnapshotHeader[];
      expect(header?.snapshot_id).toBe(pendingId);
      expect(header?.reserves).toHaveLength(1);
      expect(header?.reserve_totals).toEqual({ USDT: '600000000000000' });
      const scaled = (600000000000000n * 10_000n) / usdt;
      expect(header?.ratios).toEqual({
        USDT: `${scaled / 10_000n}.${(scaled % 10_000n).toString().padStart(4, '0')}`,
      });
      const audit = await server.app.ctx.audit.list(server.app.ctx.store.db, { limit: 50 });
      expect(
        audit.filter((r) => r.action === 'reserves.add' && r.target === `por_snapshot:${pendingId}`),
      ).toHaveLength(1);
      expect(audit.filter((r) => r.action === 'reserves.publish')).toHaveLength(1);
    });
  });
});

describe('random ledgers (SQLite)', () => {
  let server: TestServer;
  const users: bigint[] = [];

  beforeAll(async () => {
    server = await startServer('sqlite', { env: { LIMIT_REGISTER_PER_IP: '1000/3600' } });
    for (let i = 0; i < 8; i++) users.push(BigInt((await registerAndLogin(server)).uid));
  });
  afterAll(async () => {
    await expectLedgerInvariants(server);
    await server?.close();
  });

  it('give root sums equal to the ledger’s per-asset user totals, and every user’s proof verifies', async () => {
    const service = server.app.ctx.reserves!.service;
    const { ledger, store } = server.app.ctx;
    // why: `locked` balances are reservations (the launchpad's allocations); these credits are too.
    const lockedCredits = new Map<string, bigint>();
    ledger.addReservationSource(
      'por-property.locked',
      async () =>
        [...lockedCredits].map(([key, amount]) => {
          const [user, asset] = key.split('|');
          return { userId: BigInt(user as string), asset: asset as string, amount };
        }),
      'locked',
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            user: fc.nat({ max: users.length - 1 }),
            asset: fc.constantFrom('BTC', 'ETH', 'USDT'),
            kind: fc.constantFrom('available' as const, 'locked' as const),
            amount: fc.bigInt({ min: 1n, max: 10n ** 14n }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        async (credits) => {
          run += 1;
          await store.db.transaction().execute(async (trx) => {
            for (const [i, credit] of credits.entries()) {
              await ledger.post(trx, {
                type: 'adjustment',
                ref: `por-property:${run}:${i}`,
                postings: [
                  {
                    owner: { system: 'adjustments' },
                    asset: credit.asset,
                    kind: 'available',
                    amount: -credit.amount,
                  },
                  {
                    owner: { userId: users[credit.user] as bigint },
                    asset: credit.asset,
                    kind: credit.kind,
                    amount: credit.amount,
                  },
                ],
              });
            }
          });
          for (const credit of credits) {
            if (credit.kind !== 'locked') continue;
            const key = `${users[credit.user]}|${credit.asset}`;
            lockedCredits.set(key, (lockedCredits.get(key) ?? 0n) + credit.amount);
          }
          await server.clock.advance(1000);
          const id = await service.takeSnapshot(server.clock.now(), server.clock.now());
          await service.publish({ upTo: id });
          const [header] = await service.headers(1);
          if (!header) throw new Error('no header');
          const { users: balances, totals } = await ledgerView(server);
          expect(header.snapshot_id).toBe(Number(id));
          expect(header.root_sums).toEqual(header.assets.map((asset) => String(totals.get(asset) ?? 0n)));
          for (const [userId, mine] of balances) {
            const proof = await service.proof(userId, id);
            expect(await verifyProof(proof, header)).toEqual(
              header.assets.map((asset) => mine.get(asset) ?? 0n),
            );
          }
        },
      ),
      { numRuns: propertyRuns(6) },
    );
  });
});
