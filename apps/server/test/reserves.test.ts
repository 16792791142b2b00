import {
  type InclusionProof,
  type SnapshotHeader,
  verifyChain,
  verifyHeader,
  verifyProof,
} from '@bourse/por';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COUNTED_KINDS, TRIAL_KINDS } from '../src/modules/reserves/service.ts';
import { indexTick } from './delivery-harness.ts';
import { DIALECTS, registerAndLogin, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';

const DAY_MS = 86_400_000;

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
      expect([header.leaf_count, header.depth, header.reserves, header.ratios]).toEqual([1024, 10, [], {}]);
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
      const headers = ((await server.call('GET', '/por/snapshots')).data.list as SnapshotHeader[]).reverse();
      expect(headers).toHaveLength(2);
      expect(headers[1]?.taken_at).toBe(
        new Date(server.clock.now() - 5_000).toISOString().replace('.000Z', 'Z'),
      );
      await verifyChain(headers, key);
      for (const header of headers) {
        const proof = await server.call(
          'GET',
          '/por/proof',
          { snapshot_id: header.snapshot_id },
          { token: demo.token },
        );
        expect(proof.code).toBe(1000);
        await verifyProof(proof.data, header);
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
