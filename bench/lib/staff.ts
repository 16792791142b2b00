// Signs a back-office owner in over HTTP as the back office does: password, then a TOTP code
// (enrolling it at the first sign-in). The TOTP secret is kept in the data folder, so a later
// run on the same store signs in again.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const SECRET_FILE = 'bench-staff.json';

function base32(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of secret.replace(/=+$/, '').toUpperCase())
    bits += alphabet.indexOf(ch).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** The RFC 6238 code (SHA-1, 6 digits, 30 s) of `secret` for the time step `step`. */
function totp(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

async function post(url: string, body: Record<string, unknown>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', Lang: 'en-us' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { code: number; msg: string; data: any };
}

/** A staff session token for `username` on the server at `base` (`http://host:port`). */
export async function staffToken(
  base: string,
  dataDir: string,
  credentials: { username: string; password: string },
): Promise<string> {
  const file = path.join(dataDir, SECRET_FILE);
  const kept = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { password: string; secret: string })
    : undefined;
  const password = kept?.password ?? credentials.password;
  const step = await post(`${base}/admin-api/login`, { username: credentials.username, password });
  if (step.code !== 1000) throw new Error(`staff login: ${step.msg}`);
  const now = Math.floor(Date.now() / 30_000);
  if (step.data.step === 'enrol') {
    const newPassword = step.data.mustChangePassword ? `${credentials.password}-bench` : undefined;
    const done = await post(`${base}/admin-api/totp/enrol`, {
      ticket: step.data.ticket,
      code: totp(step.data.secret, now),
      newPassword,
    });
    if (done.code !== 1000) throw new Error(`staff enrolment: ${done.msg}`);
    fs.writeFileSync(file, JSON.stringify({ password: newPassword ?? password, secret: step.data.secret }), {
      mode: 0o600,
    });
    return done.data.token as string;
  }
  if (!kept) throw new Error(`${credentials.username} has enrolled a TOTP secret this bench does not know`);
  // why: a code is accepted once; a run within 30 s of the last one takes the next step's code.
  for (const s of [now, now + 1]) {
    const done = await post(`${base}/admin-api/totp/verify`, {
      ticket: step.data.ticket,
      code: totp(kept.secret, s),
    });
    if (done.code === 1000) return done.data.token as string;
  }
  throw new Error('staff TOTP code refused');
}
