/**
 * Draws the installable app's icons from the logo (public/favicon.svg) into public/icons/:
 * 192 and 512 pixels, a 512-pixel maskable one (the logo inside the safe zone on a full bleed), and
 * the 180-pixel home-screen icon iOS reads. Run it when the logo changes:
 * `node apps/web/scripts/make-icons.ts`; the PNGs are committed.
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const PUBLIC = path.resolve(import.meta.dirname, '../public');
const BACKGROUND = '#0b0e14';
const logo = fs.readFileSync(path.join(PUBLIC, 'favicon.svg'));

async function plain(size: number, name: string): Promise<void> {
  await sharp(logo, { density: 512 })
    .resize(size, size)
    .png()
    .toFile(path.join(PUBLIC, 'icons', name));
}

async function maskable(size: number, name: string): Promise<void> {
  // why: launchers crop maskable icons to a circle or squircle; the safe zone is the inner 80 %.
  const inner = Math.round(size * 0.72);
  const mark = await sharp(logo, { density: 512 }).resize(inner, inner).png().toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: BACKGROUND } })
    .composite([{ input: mark, gravity: 'center' }])
    .png()
    .toFile(path.join(PUBLIC, 'icons', name));
}

fs.mkdirSync(path.join(PUBLIC, 'icons'), { recursive: true });
await plain(192, 'icon-192.png');
await plain(512, 'icon-512.png');
await plain(180, 'apple-touch-icon.png');
await maskable(512, 'icon-maskable-512.png');
console.log('icons written to public/icons');
