import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { storedNames } from './stored-files.ts';
import { newUser, pngImage, postDeposit } from './wallet-harness.ts';

const FIELDS = { coin: 'USDT', network: 'TRC20', amount: '50' };

/** A JPEG carrying EXIF metadata (a camera make and a copyright line that must not survive). */
async function jpegWithMetadata(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#884422' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'SecretCam', Copyright: 'private-owner-42' } })
    .toBuffer();
}

describe.each(DIALECTS)('voucher uploads on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let token: string;
    const storedFiles = () => storedNames(server);

    beforeAll(async () => {
      server = await startServer(name, { env: { DEMO: 'on' } });
      token = (await newUser(server)).token;
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('refuses a file that is not an image, whatever its name says', async () => {
      const answer = await postDeposit(server, token, FIELDS, {
        data: Buffer.from('just some text, not a picture'),
        filename: 'voucher.png',
      });
      expect(answer).toMatchObject({ code: 5002, msg: 'Please upload a JPEG, PNG, WebP or GIF image.' });
      const pdf = await postDeposit(server, token, FIELDS, {
        data: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF'),
        filename: 'voucher.pdf',
        type: 'application/pdf',
      });
      expect(pdf.code).toBe(5002);
      expect(await storedFiles()).toEqual([]);
    });

    it('refuses an image whose extension names another format', async () => {
      const answer = await postDeposit(server, token, FIELDS, {
        data: await pngImage(),
        filename: 'voucher.jpg',
      });
      expect(answer.code).toBe(5002);
      const html = await postDeposit(server, token, FIELDS, {
        data: await pngImage(),
        filename: 'voucher.html',
      });
      expect(html.code).toBe(5002);
      expect(await storedFiles()).toEqual([]);
    });

    it('refuses a file over 5 MiB', async () => {
      const big = Buffer.concat([await pngImage(), Buffer.alloc(5 * 1024 * 1024)]);
      const answer = await postDeposit(server, token, FIELDS, { data: big, filename: 'voucher.png' });
      expect(answer).toMatchObject({ code: 5003, msg: 'The file is too large (at most 5 MB).' });
      expect(await storedFiles()).toEqual([]);
    });

    it('refuses polyglots: an image with a page or an archive riding along', async () => {
      const png = await pngImage();
      const withScriptInside = Buffer.from(
        `GIF89a\x01\x00\x01\x00\x00\x00\x00;<script>alert(document.cookie)</script>;`,
        'latin1',
      );
      const cases: { data: Buffer; filename: string }[] = [
        // a PNG followed by an HTML page
        {
          data: Buffer.concat([png, Buffer.from('<html><script>alert(1)</script></html>')]),
          filename: 'a.png',
        },
        // a PNG followed by a ZIP archive (the classic image+zip polyglot)
        {
          data: Buffer.concat([png, Buffer.from('PK\x03\x04\x14\x00\x00\x00payload', 'latin1')]),
          filename: 'b.png',
        },
        // a GIF whose bytes are also a script
        { data: withScriptInside, filename: 'c.gif' },
        // a JPEG with PHP in a comment segment
        {
          data: Buffer.concat([
            Buffer.from([0xff, 0xd8, 0xff, 0xfe, 0x00, 0x14]),
            Buffer.from('<?php system($x); ?>', 'latin1'),
            (await sharp(png).jpeg().toBuffer()).subarray(2),
          ]),
          filename: 'd.jpg',
        },
      ];
      for (const file of cases) {
        const answer = await postDeposit(server, token, FIELDS, file);
        expect(answer.code, file.filename).toBe(5002);
      }
      expect(await storedFiles()).toEqual([]);
    });

    it('refuses a file part on a route that takes none', async () => {
      const form = new FormData();
      form.append('token', token);
      form.append('coin', 'USDT');
      form.append('voucher', new Blob([new Uint8Array(await pngImage())], { type: 'image/png' }), 'v.png');
      const response = await fetch(`${server.url}/apiv/Finance/getcoinnum`, { method: 'POST', body: form });
      expect(((await response.json()) as { code: number }).code).toBe(1001);
      expect(await storedFiles()).toEqual([]);
    });

    it('stores a good image re-encoded, metadata stripped, under a random name, served inert', async () => {
      const original = await jpegWithMetadata();
      expect((await sharp(original).metadata()).exif).toBeDefined();
      expect(original.includes(Buffer.from('private-owner-42'))).toBe(true);

      const first = await postDeposit(server, token, FIELDS, { data: original, filename: 'IMG_0001.JPG' });
      const second = await postDeposit(server, token, FIELDS, { data: original, filename: 'IMG_0001.JPG' });
      expect(first.code).toBe(1000);
      expect(second.code).toBe(1000);
      const names = [first.data.voucher, second.data.voucher].map((url: string) =>
        url.replace('/Upload/public/', ''),
      );
      for (const stored of names) expect(stored).toMatch(/^[0-9a-f]{32}\.webp$/);
      expect(names[0]).not.toBe(names[1]);
      expect(await storedFiles()).toEqual([...names].sort());

      const response = await fetch(`${server.url}${first.data.voucher}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('content-security-policy')).toContain('sandbox');
      const served = Buffer.from(await response.arrayBuffer());
      const meta = await sharp(served).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 64, height: 48 });
      expect(meta.exif).toBeUndefined();
      expect(served.includes(Buffer.from('private-owner-42'))).toBe(false);
      expect(served.includes(Buffer.from('SecretCam'))).toBe(false);

      for (const probe of [
        '../bourse.sqlite',
        'x.html',
        `${names[0].slice(0, -5)}.png`,
        `${'0'.repeat(32)}.webp`,
      ]) {
        const missing = await fetch(`${server.url}/Upload/public/${encodeURIComponent(probe)}`);
        expect(missing.status, probe).toBe(404);
      }
    });

    it('removes the voucher when the deposit row itself cannot be written', async () => {
      const db = server.app.ctx.store.db;
      // why: a real failure of the store, not a mock: a trigger refuses every new deposit row.
      if (name === 'postgres') {
        await sql`create function refuse_deposit() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(
          db,
        );
        await sql`create trigger refuse_deposit before insert on deposits for each row execute function refuse_deposit()`.execute(
          db,
        );
      } else {
        await sql`create trigger refuse_deposit before insert on deposits begin select raise(abort, 'refused by the test'); end`.execute(
          db,
        );
      }
      const before = await storedFiles();
      try {
        const answer = await postDeposit(server, token, FIELDS, {
          data: await pngImage(),
          filename: 'voucher.png',
        });
        expect(answer.code).toBe(1006);
        expect(await storedFiles()).toEqual(before);
      } finally {
        await sql`drop trigger refuse_deposit${sql.raw(name === 'postgres' ? ' on deposits' : '')}`.execute(
          db,
        );
        if (name === 'postgres') await sql`drop function refuse_deposit()`.execute(db);
      }
      // the same deposit goes through once the store takes rows again
      const accepted = await postDeposit(server, token, FIELDS, {
        data: await pngImage(),
        filename: 'voucher.png',
      });
      expect(accepted.code).toBe(1000);
      expect(await storedFiles()).toHaveLength(before.length + 1);
    });
  });
});
