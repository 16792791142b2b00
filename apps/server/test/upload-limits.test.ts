import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DecodeQueue, MAX_IMAGE_PIXELS, PROCESS_DECODE_QUEUE } from '../src/platform/uploads.ts';
import { SQLITE_ONLY, startServer, type TestServer } from './harness.ts';
import { expectLedgerInvariants } from './ledger-invariants.ts';
import { storedNames } from './stored-files.ts';
import { newUser, postDeposit } from './wallet-harness.ts';

const FIELDS = { coin: 'USDT', network: 'TRC20', amount: '50' };
const TOO_LARGE = {
  code: 5004,
  msg: 'The image is too large to process (at most 16 megapixels and 8192 pixels per side). Please upload a smaller photo.',
};
const BUSY = {
  code: 5005,
  msg: 'Too many images are being processed right now. Please try again in a moment.',
};

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const frame = Buffer.alloc(8);
  frame.writeUInt32BE(data.length, 0);
  frame.writeUInt32BE(crc32(body), 4);
  return Buffer.concat([frame.subarray(0, 4), body, frame.subarray(4)]);
}

/**
 * A decompression bomb: a valid 8-bit RGB PNG of `side` × `side` all-zero pixels.
 * Its bytes stay small (about 115 KB at 6300 × 6300) while decoding it costs 119 MB of pixels.
 */
function pngBomb(side = 6300): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = zlib.deflateSync(Buffer.alloc((side * 3 + 1) * side), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A photo-sized JPEG (12 Mpx, a phone's default) with some texture, as a camera would save it. */
let photo: Promise<Buffer> | undefined;
function photoJpeg(): Promise<Buffer> {
  photo ??= makePhotoJpeg();
  return photo;
}

async function makePhotoJpeg(): Promise<Buffer> {
  const noise = { type: 'gaussian', mean: 128, sigma: 30 } as const;
  return sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise } })
    .jpeg({ quality: 60 })
    .toBuffer();
}

describe('the decode queue', () => {
  it('runs one task at a time, refuses past its waiting room, and frees the slot of a failed task', async () => {
    const queue = new DecodeQueue({ concurrency: 1, maxWaiting: 1 });
    const order: string[] = [];
    let releaseFirst = () => {};
    const first = queue.run(
      () =>
        new Promise<string>((resolve) => {
          order.push('first started');
          releaseFirst = () => resolve('first');
        }),
    );
    const second = queue.run(async () => {
      order.push('second started');
      throw new Error('decode failed');
    });
    expect(queue.load).toEqual({ running: 1, waiting: 1 });
    await expect(queue.run(async () => 'third')).rejects.toMatchObject({ key: 'UPLOAD_BUSY' });
    expect(order).toEqual(['first started']);
    releaseFirst();
    expect(await first).toBe('first');
    await expect(second).rejects.toThrow('decode failed');
    expect(order).toEqual(['first started', 'second started']);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
    expect(await queue.run(async () => 'fourth')).toBe('fourth');
  });
});

describe.each(SQLITE_ONLY)('image upload limits on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let token: string;
    const storedFiles = () => storedNames(server);
    const bomb = pngBomb();

    beforeAll(async () => {
      server = await startServer(name, { env: { DEMO: 'on' } });
      token = (await newUser(server)).token;
    });
    afterAll(async () => {
      await expectLedgerInvariants(server);
      await server?.close();
    });

    it('refuses the 6300 × 6300 PNG bomb from its header, translated, and stores nothing', async () => {
      const meta = await sharp(bomb).metadata();
      expect(meta).toMatchObject({ format: 'png', width: 6300, height: 6300 });
      expect(bomb.length).toBeLessThan(200_000);
      expect(6300 * 6300).toBeGreaterThan(MAX_IMAGE_PIXELS);

      const answer = await postDeposit(server, token, FIELDS, { data: bomb, filename: 'voucher.png' });
      expect(answer).toMatchObject(TOO_LARGE);
      const japanese = await postDeposit(
        server,
        token,
        FIELDS,
        { data: bomb, filename: 'voucher.png' },
        'ja-jp',
      );
      expect(japanese.code).toBe(5004);
      expect(japanese.msg).toBe(
        '画像が大きすぎて処理できません（最大 1600 万画素、1 辺最大 8192 ピクセル）。より小さい写真をアップロードしてください。',
      );
      // a narrow strip under the pixel limit but over the side limit
      const strip = await sharp({ create: { width: 9000, height: 10, channels: 3, background: '#000' } })
        .png()
        .toBuffer();
      const stripAnswer = await postDeposit(server, token, FIELDS, { data: strip, filename: 'voucher.png' });
      expect(stripAnswer.code).toBe(5004);
      expect(await storedFiles()).toEqual([]);
    });

    it('refuses 16 bombs sent at once while /healthz still answers', async () => {
      const before = await storedFiles();
      const uploads = Array.from({ length: 16 }, () =>
        postDeposit(server, token, FIELDS, { data: bomb, filename: 'voucher.png' }),
      );
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });
      const answers = await Promise.all(uploads);
      for (const answer of answers) expect(answer).toMatchObject(TOO_LARGE);
      expect(await storedFiles()).toEqual(before);
      expect(PROCESS_DECODE_QUEUE.load).toEqual({ running: 0, waiting: 0 });
    });

    it('still takes a photo-sized image, re-encoded to 2400 px', async () => {
      const photo = await photoJpeg();
      const answer = await postDeposit(server, token, FIELDS, { data: photo, filename: 'IMG_2041.jpg' });
      expect(answer.code).toBe(1000);
      const stored = await fetch(`${server.url}${answer.data.voucher}`);
      expect(stored.status).toBe(200);
      const meta = await sharp(Buffer.from(await stored.arrayBuffer())).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 2400, height: 1800 });
    });

    it('answers "busy, try again" when the decode queue is full, and takes the image once it drains', async () => {
      const before = await storedFiles();
      let release = () => {};
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      // why: fill this process's queue (one running, eight waiting) with tasks the test holds open.
      const holders: Promise<void>[] = [];
      for (;;) {
        const { running, waiting } = PROCESS_DECODE_QUEUE.load;
        if (running === 1 && waiting === 8) break;
        holders.push(PROCESS_DECODE_QUEUE.run(() => gate));
      }
      try {
        const small = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#225588' } })
          .png()
          .toBuffer();
        const busy = await postDeposit(server, token, FIELDS, { data: small, filename: 'voucher.png' });
        expect(busy).toMatchObject({ ...BUSY, status: 503 });
        expect(await storedFiles()).toEqual(before);

        release();
        await Promise.all(holders);
        const accepted = await postDeposit(server, token, FIELDS, { data: small, filename: 'voucher.png' });
        expect(accepted.code).toBe(1000);
      } finally {
        release();
      }
    });
  });
});
