import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DbFileStore } from '../src/platform/db-file-store.ts';
import { FILE_STORES } from '../src/platform/uploads.ts';
import { signInOwner, signInStaffRoles } from './delivery-harness.ts';
import { callAdmin, DIALECTS, postImage, registerAndLogin, startServer, type TestServer } from './harness.ts';
import { storedNames } from './stored-files.ts';
import { newUser, pngImage, postDeposit } from './wallet-harness.ts';

const FIELDS = { coin: 'USDT', network: 'TRC20', amount: '50' };
const OWNER = { ADMIN_USER: 'boss', ADMIN_PASSWORD: 'owner-pass-1' };
const IDENTITY = {
  type: 'passport',
  realname: 'Alice Example',
  country: 'JP',
  mobile: '+819012345678',
  idno: 'TR1234567',
};

/** Uploads one identity image the way the web app does (multipart `image`). */
function uploadIdentityImage(server: TestServer, token: string, data: Buffer) {
  return postImage(server, '/user/upauthimg', token, data, 'id.png');
}

/** Uploads a deposit voucher and an identity document (submitted for review); answers their names. */
async function uploadBoth(server: TestServer) {
  const payer = await newUser(server);
  const deposit = await postDeposit(server, payer.token, FIELDS, {
    data: await pngImage('#225588'),
    filename: 'voucher.png',
  });
  expect(deposit.code).toBe(1000);
  const alice = await registerAndLogin(server);
  const front = await uploadIdentityImage(server, alice.token, await pngImage('#112233'));
  const back = await uploadIdentityImage(server, alice.token, await pngImage('#445566'));
  expect([front.code, back.code]).toEqual([1000, 1000]);
  const submitted = await server.call(
    'POST',
    '/user/upauthrz',
    { ...IDENTITY, front: front.data.image, back: back.data.image },
    { token: alice.token },
  );
  expect(submitted.code).toBe(1000);
  return {
    voucherUrl: deposit.data.voucher as string,
    voucher: (deposit.data.voucher as string).replace('/Upload/public/', ''),
    front: front.data.image as string,
    back: back.data.image as string,
    uid: alice.uid,
  };
}

async function served(server: TestServer, url: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(`${server.url}${url}`);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

const postgres = DIALECTS.find((d) => d.name === 'postgres');

describe.skipIf(postgres?.skip !== false)('two nodes on one PostgreSQL store share every upload', () => {
  let nodeA: TestServer;
  let nodeB: TestServer;
  let compliance: string;
  const legacyName = `${'ab'.repeat(16)}.webp`;
  const legacyBytes = Buffer.from('RIFF-legacy-voucher-bytes');

  beforeAll(async () => {
    nodeA = await startServer('postgres', { env: { DEMO: 'on', ...OWNER } });
    // why: a node has its own DATA_DIR; nodes sharing a store are given the same keys.
    const dirB = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-test-node-b-'));
    for (const key of fs.readdirSync(nodeA.store.dataDir).filter((file) => file.endsWith('.key')))
      fs.copyFileSync(path.join(nodeA.store.dataDir, key), path.join(dirB, key));
    // A file node B kept in its own folder before uploads moved into the database.
    fs.mkdirSync(path.join(dirB, 'uploads'));
    fs.writeFileSync(path.join(dirB, 'uploads', legacyName), legacyBytes);
    fs.writeFileSync(path.join(dirB, 'uploads', 'notes.txt'), 'not an upload');
    nodeB = await startServer('postgres', {
      env: { DEMO: 'off', ...OWNER },
      reuse: { dataDir: dirB, databaseUrl: nodeA.store.databaseUrl as string },
    });
    const owner = await signInOwner(nodeB, 'boss', 'owner-pass-1');
    ({ compliance } = await signInStaffRoles(nodeB, owner, ['compliance'] as const));
  });
  afterAll(async () => {
    await nodeB?.close({ keepStore: true });
    if (nodeB) fs.rmSync(nodeB.store.dataDir, { recursive: true, force: true });
    await nodeA?.close();
  });

  it('a voucher uploaded through A is served by B byte for byte; an identity document is reviewed through B', async () => {
    const uploaded = await uploadBoth(nodeA);
    // Nothing went to either node's folders: the bytes are rows of the shared store.
    for (const node of [nodeA, nodeB])
      for (const store of FILE_STORES)
        expect(fs.existsSync(path.join(node.store.dataDir, store, uploaded.voucher))).toBe(false);
    expect(await storedNames(nodeB, 'uploads')).toContain(uploaded.voucher);
    expect(await storedNames(nodeB, 'identity')).toEqual(
      expect.arrayContaining([uploaded.front, uploaded.back]),
    );

    const fromA = await served(nodeA, uploaded.voucherUrl);
    const fromB = await served(nodeB, uploaded.voucherUrl);
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(fromB.bytes.equals(fromA.bytes)).toBe(true);
    const row = await nodeB.app.ctx.store.db
      .selectFrom('stored_files')
      .select(['bytes', 'content_type', 'size'])
      .where('store', '=', 'uploads')
      .where('name', '=', uploaded.voucher)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(row.bytes).equals(fromB.bytes)).toBe(true);
    expect([row.content_type, row.size]).toEqual(['image/webp', BigInt(fromB.bytes.length)]);

    // Identity documents are never public, on any node.
    for (const node of [nodeA, nodeB])
      expect((await served(node, `/Upload/public/${uploaded.front}`)).status).toBe(404);
    const queue = await callAdmin(nodeB, 'GET', '/identity', undefined, compliance);
    const submission = queue.data.list.find((r: { userId: number }) => r.userId === uploaded.uid);
    expect(submission).toMatchObject({ status: 'pending' });
    const image = await callAdmin(
      nodeB,
      'GET',
      `/identity/${submission.id}/image/front`,
      undefined,
      compliance,
    );
    expect(image.code).toBe(1000);
    const stored = await new DbFileStore({
      handle: nodeA.app.ctx.store,
      store: 'identity',
      clock: nodeA.clock,
    }).read(uploaded.front);
    expect(image.data.dataUrl).toBe(`data:image/webp;base64,${stored?.toString('base64')}`);
    // the read through B is audited in the shared store
    const actions = await nodeA.app.ctx.store.db
      .selectFrom('audit_log')
      .select('action')
      .where('target', '=', `identity:${submission.id}`)
      .execute();
    expect(actions.map((a) => a.action)).toContain('identity.image');
    const approved = await callAdmin(
      nodeB,
      'POST',
      `/identity/${submission.id}/approve`,
      { idno: IDENTITY.idno, country: IDENTITY.country },
      compliance,
    );
    expect(approved.data).toMatchObject({ status: 'approved' });
  });

  it('a support-chat picture sent through A is read by its sender through B', async () => {
    const bob = await registerAndLogin(nodeA);
    const sent = await postImage(nodeA, '/user/chatimage', bob.token, await pngImage('#aa3355'), 'shot.png');
    expect(sent.code).toBe(1000);
    const chatImage = `/apiv/user/chatimg?name=${sent.data.image}&token=${bob.token}`;
    const [fromA, fromB] = [await served(nodeA, chatImage), await served(nodeB, chatImage)];
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(fromB.bytes.equals(fromA.bytes)).toBe(true);
    expect(await storedNames(nodeB, 'chat')).toContain(sent.data.image);
    expect((await served(nodeB, `/Upload/public/${sent.data.image}`)).status).toBe(404);
  });

  it('files a node kept in its folder before are imported at its start and served by every node', async () => {
    expect(fs.readdirSync(path.join(nodeB.store.dataDir, 'uploads'))).toEqual(['notes.txt']);
    const fromA = await served(nodeA, `/Upload/public/${legacyName}`);
    expect(fromA.status).toBe(200);
    expect(fromA.bytes.equals(legacyBytes)).toBe(true);
  });

  it('reads by generated name within its own store only; a name outside it is refused', async () => {
    const uploaded = await uploadBoth(nodeA);
    const handle = nodeB.app.ctx.store;
    const uploads = new DbFileStore({ handle, store: 'uploads', clock: nodeB.clock });
    const identity = new DbFileStore({ handle, store: 'identity', clock: nodeB.clock });
    expect(await identity.read(uploaded.front)).toBeInstanceOf(Buffer);
    // another store's name: the public store has no such file, and nothing serves it
    expect(await uploads.read(uploaded.front)).toBeUndefined();
    expect(await identity.read(uploaded.voucher)).toBeUndefined();
    expect((await served(nodeB, `/Upload/public/${uploaded.back}`)).status).toBe(404);
    for (const name of [
      '../x',
      `../identity/${uploaded.front}`,
      `identity/${uploaded.front}`,
      '',
      uploaded.front.toUpperCase(),
    ]) {
      expect(await uploads.read(name), name).toBeUndefined();
      await expect(uploads.save(name, Buffer.from('x'), 'image/webp'), name).rejects.toThrow(
        'not a generated upload name',
      );
      await expect(uploads.remove(name), name).rejects.toThrow('not a generated upload name');
    }
    for (const probe of [
      '..%2Fx',
      `..%2Fidentity%2F${uploaded.front}`,
      `%2E%2E%2F${uploaded.front}`,
      'x.html',
    ]) {
      const answer = await served(nodeB, `/Upload/public/${probe}`);
      expect(answer.status, probe).toBe(404);
    }
    // the identity image is still there, untouched by any of it
    expect((await identity.read(uploaded.front))?.length).toBeGreaterThan(0);
  });
});

describe('one node on SQLite keeps uploads in its folders', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite', { env: { DEMO: 'on', ...OWNER } });
  });
  afterAll(() => server?.close());

  it('writes vouchers and identity documents to DATA_DIR/uploads and DATA_DIR/identity, none to the database', async () => {
    const uploaded = await uploadBoth(server);
    const voucherFile = path.join(server.store.dataDir, 'uploads', uploaded.voucher);
    expect(fs.existsSync(voucherFile)).toBe(true);
    for (const name of [uploaded.front, uploaded.back]) {
      expect(fs.existsSync(path.join(server.store.dataDir, 'identity', name))).toBe(true);
      expect(fs.existsSync(path.join(server.store.dataDir, 'uploads', name))).toBe(false);
    }
    const servedVoucher = await served(server, uploaded.voucherUrl);
    expect(servedVoucher.status).toBe(200);
    expect(servedVoucher.bytes.equals(fs.readFileSync(voucherFile))).toBe(true);
    const rows = await server.app.ctx.store.db.selectFrom('stored_files').select('name').execute();
    expect(rows).toEqual([]);
  });
});
