import { randomBytes, randomInt } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import { sha256 } from '../../platform/crypto.ts';
import type { Db } from '../../platform/db.ts';
import { fromMillis, toMillis } from '../../platform/time.ts';
import { deleteExpiredCaptchas, insertCaptcha, takeCaptcha } from './repository.ts';

/**
 * The function that draws a given text, loaded with the first captcha. why: the library reads
 * and parses its font when loaded, which every start paid for; and its typings omit this, its
 * main export.
 */
let drawer: Promise<(text: string, options: object) => string> | undefined;
function drawCaptcha(text: string, options: object): Promise<string> {
  drawer ??= import('svg-captcha').then(
    ({ default: draw }) => draw as unknown as (text: string, options: object) => string,
  );
  return drawer.then((draw) => draw(text, options));
}

const CAPTCHA_TTL_MS = 5 * 60_000;
// why: no look-alike characters (0/o, 1/l/i), so a person can read the code at phone size.
const CAPTCHA_CHARS = '23456789abcdefghjkmnpqrstuvwxyz';

/** Source of the text drawn in a captcha: random by default; tests pass a known one. */
export type CaptchaTextSource = () => string;

export const randomCaptchaText: CaptchaTextSource = () => {
  let text = '';
  for (let i = 0; i < 4; i++) text += CAPTCHA_CHARS[randomInt(CAPTCHA_CHARS.length)];
  return text;
};

/**
 * Graphic codes: `issue` draws a code and stores only its hash under a random key; `check`
 * consumes the key (one use, even when wrong) and compares case-insensitively.
 */
export class CaptchaService {
  private readonly db: Db;
  private readonly clock: Clock;
  private readonly textSource: CaptchaTextSource;

  constructor(db: Db, clock: Clock, textSource: CaptchaTextSource = randomCaptchaText) {
    this.db = db;
    this.clock = clock;
    this.textSource = textSource;
  }

  async issue(): Promise<{ key: string; img: string }> {
    const now = this.clock.now();
    const text = this.textSource();
    const svg = await drawCaptcha(text, {
      width: 120,
      height: 44,
      fontSize: 48,
      noise: 2,
      color: true,
      background: '#f4f6fa',
    });
    const key = randomBytes(16).toString('hex');
    await insertCaptcha(this.db, key, sha256(text.toLowerCase()), toMillis(now + CAPTCHA_TTL_MS));
    if (randomInt(50) === 0) await deleteExpiredCaptchas(this.db, toMillis(now));
    return { key, img: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  async check(key: string, code: string): Promise<boolean> {
    if (!key || !code) return false;
    const row = await takeCaptcha(this.db, key);
    if (!row || fromMillis(row.expires_at) < this.clock.now()) return false;
    return row.answer_hash === sha256(code.trim().toLowerCase());
  }
}
