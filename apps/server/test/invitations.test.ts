import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskName } from '../src/modules/users/service.ts';
import { DIALECTS, startServer, type TestServer } from './harness.ts';

describe('masked team names', () => {
  it('keep the first two characters and the last, and an e-mail its domain', () => {
    expect(maskName('alexander')).toBe('al***r');
    expect(maskName('bob')).toBe('b***');
    expect(maskName('ab12cd@example.com')).toBe('ab***@example.com');
    expect(maskName('13800138000')).toBe('13***0');
  });
});

describe.each(DIALECTS)('invitations on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    const users: { username: string; token: string; uid: number; code: string }[] = [];

    /** Registers `username` with `invit` (when given), logs in, reads its own invitation code. */
    async function join(username: string, invit?: string) {
      const registered = await server.call('POST', '/Login/upregister', {
        account: username,
        lpwd: 'secret123',
        ...(invit ? { invit } : {}),
      });
      expect(registered.code).toBe(1000);
      const login = await server.call('POST', '/Login/loginsubmit', { email: username, lpwd: 'secret123' });
      const team = await server.call('GET', '/user/tgcode', {}, { token: login.data.token });
      const user = { username, token: login.data.token, uid: login.data.uid, code: team.data.invite_code };
      users.push(user);
      return user;
    }

    beforeAll(async () => {
      server = await startServer(name, { env: { LIMIT_REGISTER_PER_IP: '1000/3600' } });
      // A invited B, B invited C, C invited D, D invited E
      const a = await join('alice_root');
      const b = await join('bertram', a.code);
      const c = await join('cecilia', b.code);
      const d = await join('dominic', c.code);
      await join('evangeline', d.code);
    });
    afterAll(async () => {
      await server?.close();
    });

    it('records the referrer chain over three generations at sign-up, and no fourth', async () => {
      const [a, b, c, d, e] = users;
      const ancestors = await server.app.ctx.store.db
        .selectFrom('referral_edges')
        .select(['ancestor_id', 'depth'])
        .where('descendant_id', '=', BigInt(e!.uid))
        .orderBy('depth')
        .execute();
      expect(ancestors).toEqual([
        { ancestor_id: BigInt(d!.uid), depth: 1n },
        { ancestor_id: BigInt(c!.uid), depth: 2n },
        { ancestor_id: BigInt(b!.uid), depth: 3n },
      ]);
      expect(ancestors.some((row) => row.ancestor_id === BigInt(a!.uid))).toBe(false);
    });

    it('shows the inviter their team per generation with masked names, never a fourth generation', async () => {
      const [a] = users;
      const first = await server.call('GET', '/user/tgcode', {}, { token: a!.token });
      expect(first.data).toMatchObject({ counts: [1, 1, 1], generation: 1, page: 1, has_more: false });
      expect(first.data.members).toEqual([
        { name: 'be***m', joined_at: expect.any(Number), verified: false },
      ]);
      const second = await server.call('GET', '/user/tgcode', { generation: 2 }, { token: a!.token });
      expect(second.data.members.map((m: { name: string }) => m.name)).toEqual(['ce***a']);
      const third = await server.call('GET', '/user/tgcode', { generation: 3 }, { token: a!.token });
      expect(third.data.members.map((m: { name: string }) => m.name)).toEqual(['do***c']);
      // a member's answer never carries their contacts or balances
      expect(Object.keys(third.data.members[0]).sort()).toEqual(['joined_at', 'name', 'verified']);
    });

    it('answers only the caller’s own team; bad generations and no session are refused', async () => {
      const [, , , , e] = users;
      expect((await server.call('GET', '/user/tgcode', {}, { token: e!.token })).data.counts).toEqual([
        0, 0, 0,
      ]);
      expect((await server.call('GET', '/user/tgcode', { generation: 4 }, { token: e!.token })).code).toBe(
        1001,
      );
      expect((await server.call('GET', '/user/tgcode', { generation: 'x' }, { token: e!.token })).code).toBe(
        1001,
      );
      expect((await server.call('GET', '/user/tgcode', {})).code).toBe(100);
      const unknown = await server.call('POST', '/Login/upregister', {
        account: 'nobody_invited',
        lpwd: 'secret123',
        invit: 'ZZZZZZZZ',
      });
      expect(unknown.code).toBe(2008);
    });
  });
});
