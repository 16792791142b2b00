import { randomUUID } from 'node:crypto';
import { toAtoms } from '@bourse/shared';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { StaffActor, WalletService } from '../src/modules/wallet/service.ts';
import {
  type ApiAnswer,
  type DialectName,
  registerAndLogin,
  startServer,
  type TestServer,
} from './harness.ts';

/** A staff member as the back office would pass it to the wallet's review methods. */
export const STAFF: StaffActor = { staffId: 7n, username: 'finance', actor: 'staff:7', ip: '127.0.0.1' };

/** Valid mainnet addresses (checksums right) and one with a broken checksum. */
export const ADDRESSES = {
  trx: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
  eth: '0x52908400098527886E0F7030069857D2E4169EE7',
  btc: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
  trxBadChecksum: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMX',
};

export function walletOf(server: TestServer): WalletService {
  const wallet = server.app.ctx.wallet;
  if (!wallet) throw new Error('the wallet module is not registered');
  return wallet;
}

/** A small real PNG (a voucher photo stand-in). */
export async function pngImage(color = '#336699'): Promise<Buffer> {
  return sharp({ create: { width: 48, height: 32, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** Sends a multipart deposit (`/Finance/czhandle`) the way the web app does. */
export async function postDeposit(
  server: TestServer,
  token: string,
  fields: Record<string, string>,
  voucher?: { data: Buffer; filename: string; type?: string },
  lang = 'en-us',
): Promise<ApiAnswer> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  form.append('token', token);
  if (voucher)
    form.append(
      'voucher',
      new Blob([new Uint8Array(voucher.data)], { type: voucher.type ?? 'image/png' }),
      voucher.filename,
    );
  const response = await fetch(`${server.url}/apiv/Finance/czhandle`, {
    method: 'POST',
    headers: { Lang: lang },
    body: form,
  });
  return { status: response.status, ...((await response.json()) as Omit<ApiAnswer, 'status'>) };
}

/** A fresh user with a withdrawal password set. */
export async function newUser(server: TestServer, payPassword = 'pay-1234') {
  const user = await registerAndLogin(server);
  const set = await server.call(
    'POST',
    '/User/sub_withdrawpwd',
    { paypassword: payPassword, repaypassword: payPassword },
    { token: user.token },
  );
  expect(set.code).toBe(1000);
  return { ...user, userId: BigInt(user.uid), payPassword };
}

/** Deposits `amount` of `coin` over HTTP and has staff confirm it in full; returns the deposit id. */
export async function fund(
  server: TestServer,
  user: { token: string },
  coin: string,
  network: string,
  amount: string,
): Promise<bigint> {
  const submitted = await postDeposit(
    server,
    user.token,
    { coin, network, amount },
    { data: await pngImage(), filename: 'voucher.png' },
  );
  expect(submitted.code).toBe(1000);
  const depositId = BigInt(submitted.data.id);
  await walletOf(server).confirmDeposit({ depositId, creditedAmount: toAtoms(amount), staff: STAFF });
  return depositId;
}

export async function saveAddress(
  server: TestServer,
  token: string,
  fields: { coin: string; network: string; address: string; remark?: string },
): Promise<string> {
  const answer = await server.call('POST', '/user/addaddress', fields, { token });
  expect(answer.code).toBe(1000);
  return answer.data.id as string;
}

export function withdraw(
  server: TestServer,
  token: string,
  fields: Record<string, string>,
  lang = 'en-us',
): Promise<ApiAnswer> {
  return server.call(
    'POST',
    '/Finance/tbhandle',
    { idempotency_key: randomUUID(), ...fields },
    { token, lang },
  );
}

/** Saves a TRC20 address for USDT and asks to withdraw `amount` there with the user's withdrawal password. */
export async function withdrawUsdt(
  server: TestServer,
  user: { token: string; payPassword: string },
  amount: string,
): Promise<ApiAnswer> {
  const addressId = await saveAddress(server, user.token, {
    coin: 'USDT',
    network: 'TRC20',
    address: ADDRESSES.trx,
  });
  return withdraw(server, user.token, {
    coin: 'USDT',
    address_id: addressId,
    amount,
    paypassword: user.payPassword,
  });
}

/** A server for the wallet suites: the demo accounts, and rate limits roomy enough for many users. */
export function startWalletServer(name: DialectName): Promise<TestServer> {
  return startServer(name, {
    env: { DEMO: 'on', LIMIT_PASSWORD_CHECKS: '1000/900', LIMIT_REGISTER_PER_IP: '1000/3600' },
  });
}

/** The user's available and frozen amounts of a coin as the API reports them. */
export async function balanceOf(server: TestServer, token: string, coin: string) {
  const answer = await server.call('GET', '/Finance/getmoney', { coin }, { token });
  expect(answer.code).toBe(1000);
  return { available: answer.data.available as string, frozen: answer.data.frozen as string };
}
