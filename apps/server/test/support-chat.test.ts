import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOwner, signInStaffRoles } from './delivery-harness.ts';
import { callAdmin, DIALECTS, postImage, registerAndLogin, startServer, type TestServer } from './harness.ts';
import { connect, on } from './ws-client.ts';

function sendImage(server: TestServer, token: string, data: Buffer) {
  return postImage(server, '/user/chatimage', token, data, 'shot.png');
}

describe.each(DIALECTS)('support chat on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let owner: string;
    let support: string;
    let content: string;
    const admin = (method: 'GET' | 'POST', path: string, body?: Record<string, unknown>, token = support) =>
      callAdmin(server, method, path, body, token);

    beforeAll(async () => {
      server = await startServer(name, {
        env: {
          ADMIN_USER: 'boss',
          ADMIN_PASSWORD: 'owner-pass-1',
          LIMIT_REGISTER_PER_IP: '1000/3600',
          LIMIT_SUPPORT_MESSAGES: '5/60',
        },
      });
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
      ({ support, content } = await signInStaffRoles(server, owner, ['support', 'content'] as const));
    });
    afterAll(async () => {
      await server?.close();
    });

    it('a user writes, support answers from the console, the answer reaches the user over /ws at once', async () => {
      const alice = await registerAndLogin(server);
      // the spec's support link answers the built-in chat page unless SUPPORT_URL names another
      expect((await server.call('POST', '/user/online', {}, { token: alice.token })).data).toBe(
        '#/User/contactKehu',
      );
      expect((await server.call('GET', '/user/chat', {}, { token: alice.token })).data).toEqual({
        messages: [],
        unread: 0,
        has_more: false,
      });
      const socket = await connect(server);
      socket.send({ op: 'auth', token: alice.token });
      await socket.next((f) => f.op === 'authed');
      socket.send({ op: 'subscribe', channel: 'chat' });
      expect((await socket.next(on('chat'))).data).toEqual({ unread: 0 });

      expect(
        (await server.call('POST', '/user/chatsend', { body: '   ' }, { token: alice.token })).code,
      ).toBe(1001);
      expect(
        (await server.call('POST', '/user/chatsend', { body: 'x'.repeat(2001) }, { token: alice.token }))
          .code,
      ).toBe(1001);
      const sent = await server.call(
        'POST',
        '/user/chatsend',
        { body: 'My deposit has not arrived' },
        { token: alice.token },
      );
      expect(sent.data).toMatchObject({
        sender: 'user',
        body: 'My deposit has not arrived',
        image: null,
        staff_name: null,
      });

      expect((await admin('GET', '/support/conversations', undefined, content)).code).toBe(6002);
      const list = await admin('GET', '/support/conversations');
      const mine = list.data.list.find((c: { userId: number }) => c.userId === alice.uid);
      expect(mine).toMatchObject({
        unread: 1,
        preview: 'My deposit has not arrived',
        username: alice.username,
      });
      const thread = await admin('GET', `/support/conversations/${mine.id}`);
      expect(thread.data.user).toMatchObject({ id: alice.uid, realnameStatus: 0, activity: [] });
      expect(thread.data.messages.map((m: { body: string }) => m.body)).toEqual([
        'My deposit has not arrived',
      ]);
      expect(
        (await admin('GET', '/support/conversations')).data.list.find((c: { id: number }) => c.id === mine.id)
          .unread,
      ).toBe(0);

      const reply = await admin('POST', `/support/conversations/${mine.id}/reply`, {
        body: 'We are checking it now.',
      });
      expect(reply.data).toMatchObject({ sender: 'staff', staff_name: 'support1' });
      // the user's own message reaches their other open apps too
      expect((await socket.next(on('chat'))).data).toMatchObject({ message: { sender: 'user' }, unread: 0 });
      const pushed = await socket.next(on('chat'));
      expect(pushed.data).toMatchObject({
        message: { body: 'We are checking it now.', sender: 'staff' },
        unread: 1,
      });
      const history = await server.call('GET', '/user/chat', {}, { token: alice.token });
      expect(history.data.messages.map((m: { sender: string }) => m.sender)).toEqual(['staff', 'user']);
      expect(history.data.unread).toBe(1);
      await server.call('POST', '/user/chatread', {}, { token: alice.token });
      expect((await server.call('GET', '/user/chat', {}, { token: alice.token })).data.unread).toBe(0);

      const audit = await callAdmin(server, 'GET', '/audit', { target: `support:${mine.id}` }, owner);
      expect(audit.data.map((r: { action: string }) => r.action).sort()).toEqual([
        'support.read',
        'support.reply',
      ]);
      socket.socket.close();
    });

    it('pictures are checked, private to the conversation, and readable by support', async () => {
      const bob = await registerAndLogin(server);
      const mallory = await registerAndLogin(server);
      const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#aa3355' } })
        .png()
        .toBuffer();
      expect((await sendImage(server, bob.token, Buffer.from('not an image'))).code).toBe(5002);
      const sent = await sendImage(server, bob.token, png);
      expect(sent.code).toBe(1000);
      const name = sent.data.image as string;
      const own = await fetch(`${server.url}/apiv/user/chatimg?name=${name}&token=${bob.token}`);
      expect([own.status, own.headers.get('content-type')]).toEqual([200, 'image/webp']);
      const stolen = await fetch(`${server.url}/apiv/user/chatimg?name=${name}&token=${mallory.token}`);
      expect(((await stolen.json()) as { code: number }).code).toBe(1005);
      expect((await fetch(`${server.url}/Upload/public/${name}`)).status).toBe(404);
      const staffView = await admin('GET', `/support/images/${name}`);
      expect(staffView.data.dataUrl.startsWith('data:image/webp;base64,')).toBe(true);
      // mallory cannot read bob's conversation through her own calls
      expect((await server.call('GET', '/user/chat', {}, { token: mallory.token })).data.messages).toEqual(
        [],
      );
    });

    it('limits messages per user: of a burst fired at once exactly the limit is accepted', async () => {
      const carol = await registerAndLogin(server);
      const burst = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          server.call('POST', '/user/chatsend', { body: `hello ${i}` }, { token: carol.token }),
        ),
      );
      expect(burst.filter((a) => a.code === 1000)).toHaveLength(5);
      expect(burst.filter((a) => a.code === 1004)).toHaveLength(7);
      expect((await server.call('GET', '/user/chat', {}, { token: carol.token })).data.messages).toHaveLength(
        5,
      );
    });
  });
});
