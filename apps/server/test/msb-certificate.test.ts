import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInOwner, signInStaffRoles } from './delivery-harness.ts';
import { callAdmin, SQLITE_ONLY, startServer, type TestServer } from './harness.ts';
import { pngImage } from './wallet-harness.ts';

const NOT_IMAGE = 'Please upload a JPEG, PNG, WebP or GIF image.';
const STORED_URL = /^\/Upload\/public\/[0-9a-f]{32}\.webp$/;

describe.each(SQLITE_ONLY)('the MSB certificate image on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let owner: string;
    let writer: string;
    let support: string;

    /** Posts `data` as the certificate image (multipart, as the back office does). */
    async function upload(data: Buffer, filename: string, type = 'image/png', token = writer) {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(data)], { type }), filename);
      const response = await fetch(`${server.url}/admin-api/content-msb`, {
        method: 'POST',
        headers: { Lang: 'en-us', Authorization: `Bearer ${token}` },
        body: form,
      });
      return (await response.json()) as { code: number; msg: string; data: { image_url: string } | null };
    }
    const shown = async () => (await server.call('GET', '/Index/msbcert')).data.image_url as string;
    const served = async (url: string) => {
      const response = await fetch(`${server.url}${url}`);
      return { status: response.status, type: response.headers.get('content-type') };
    };

    beforeAll(async () => {
      server = await startServer(name, { env: { ADMIN_USER: 'boss', ADMIN_PASSWORD: 'owner-pass-1' } });
      owner = await signInOwner(server, 'boss', 'owner-pass-1');
      ({ content: writer, support } = await signInStaffRoles(server, owner, ['content', 'support'] as const));
    });
    afterAll(async () => {
      await server?.close();
    });

    it('starts with none, stores an upload re-encoded under a generated name, replaces and removes it, audited', async () => {
      expect(await server.call('GET', '/Index/msbcert')).toMatchObject({
        code: 1000,
        data: { image_url: '' },
      });

      const first = await upload(await pngImage('#204080'), 'certificate.png');
      expect(first.code).toBe(1000);
      const firstUrl = first.data!.image_url;
      expect(firstUrl).toMatch(STORED_URL);
      expect(await shown()).toBe(firstUrl);
      expect(await served(firstUrl)).toEqual({ status: 200, type: 'image/webp' });
      expect((await callAdmin(server, 'GET', '/content-msb', undefined, writer)).data).toEqual({
        image_url: firstUrl,
      });

      const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#a03020' } })
        .jpeg()
        .toBuffer();
      const second = await upload(jpeg, 'scan.JPG', 'image/jpeg');
      expect(second.code).toBe(1000);
      const secondUrl = second.data!.image_url;
      expect(secondUrl).toMatch(STORED_URL);
      expect(secondUrl).not.toBe(firstUrl);
      expect(await shown()).toBe(secondUrl);
      // the replaced file is gone, not left behind unnamed
      expect((await served(firstUrl)).status).toBe(404);

      const removed = await callAdmin(server, 'POST', '/content-msb/delete', undefined, writer);
      expect(removed).toMatchObject({ code: 1000, data: { image_url: '' } });
      expect(await shown()).toBe('');
      expect((await served(secondUrl)).status).toBe(404);

      const audit = await callAdmin(server, 'GET', '/audit', { target: 'settings:msb_certificate' }, owner);
      expect(
        audit.data.map((row: { action: string; before: unknown; after: unknown }) => [
          row.action,
          row.before,
          row.after,
        ]),
      ).toEqual([
        ['content.msb_image_remove', { image: secondUrl }, { image: '' }],
        ['content.msb_image_set', { image: firstUrl }, { image: secondUrl }],
        ['content.msb_image_set', { image: '' }, { image: firstUrl }],
      ]);
    });

    it('refuses a non-image, a renamed file and a missing file with a clear error, changing nothing', async () => {
      const kept = await upload(await pngImage('#336699'), 'kept.png');
      expect(kept.code).toBe(1000);
      const keptUrl = kept.data!.image_url;
      const auditBefore = (
        await callAdmin(server, 'GET', '/audit', { target: 'settings:msb_certificate' }, owner)
      ).data.length;

      const text = Buffer.from('This is not a certificate, just some text.\n');
      expect(await upload(text, 'certificate.png')).toMatchObject({ code: 5002, msg: NOT_IMAGE, data: null });
      // a real PNG renamed to .jpg: what it says it is must be what it is
      expect(await upload(await pngImage('#112233'), 'certificate.jpg', 'image/jpeg')).toMatchObject({
        code: 5002,
        msg: NOT_IMAGE,
      });
      // a PDF renamed to .png
      const pdf = Buffer.from(
        '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
      );
      expect(await upload(pdf, 'certificate.png')).toMatchObject({ code: 5002, msg: NOT_IMAGE });
      const missing = await callAdmin(server, 'POST', '/content-msb', {}, writer);
      expect(missing.code).not.toBe(1000);
      // staff without the content role cannot change it
      expect((await upload(await pngImage(), 'other.png', 'image/png', support)).code).toBe(6002);

      expect(await shown()).toBe(keptUrl);
      expect(await served(keptUrl)).toEqual({ status: 200, type: 'image/webp' });
      const auditAfter = (
        await callAdmin(server, 'GET', '/audit', { target: 'settings:msb_certificate' }, owner)
      ).data.length;
      expect(auditAfter).toBe(auditBefore);
    });
  });
});
