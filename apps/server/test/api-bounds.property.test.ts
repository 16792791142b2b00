import { randomUUID } from 'node:crypto';
import { MAX_AMOUNT_ATOMS, RESULT_CODES } from '@bourse/shared';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../packages/shared/test/property-runs.ts';
import { signInOwner } from './delivery-harness.ts';
import { DIALECTS, registerAndLogin, startServer, type TestServer } from './harness.ts';
import { storedNames } from './stored-files.ts';
import { newUser, pngImage, postDeposit, startWalletServer, walletOf } from './wallet-harness.ts';

/**
 * Every id and amount field of the API document, fed any string, answers an envelope with an HTTP
 * status below 500 and a `code` other than INTERNAL_ERROR's, never a 500 from the driver; ids past
 * 2^63 − 1 and amounts of 10^10 units or more are refused (`code` not 1000). The fields are found
 * in `/docs/json` by name:
 * - id-like: `id`, `before`, or a name ending in `_id` / `Id` (`address_id`, `snapshot_id`,
 *   `userId`, `beforeId`, `planId`), in the path, the query or the body;
 * - amount-like: `amount`, `num`, `qty`, `price`, `quote_amount`, `balance`, or a name ending in
 *   `Amount` (decimal strings of units on the wire).
 * The other fields of the operation get plausible values, so that the field under test is the
 * only thing wrong and the request travels as far as the server lets it.
 */

const ID_NAME = /^(id|before)$|(_id|Id)$/;
const AMOUNT_NAME = /^(amount|num|qty|price|quote_amount|balance)$|Amount$/;
const RUNS_PER_FIELD = 6;
const INTERNAL_ERROR = RESULT_CODES.INTERNAL_ERROR.code;

/** Values that sit on the 64-bit edges, or are not numbers at all. */
const EDGES = [
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '-9223372036854775809',
  '-1',
  '0',
  '92233720368.54775807',
  '92233720368.54775808',
  '99999999999999999999.99999999',
  '1e30',
  '0x7fffffffffffffff',
  '1'.repeat(25),
  '١٢٣',
  '💥',
];

/** Values every id field refuses: past 2^63 − 1. */
const PAST_ID = ['9223372036854775808', '18446744073709551616'];
/** Values every amount field refuses: 10^10 units and more, up to and past 2^63 atoms. */
const PAST_AMOUNT = [
  '10000000000',
  '92233720368.54775807',
  '92233720368.54775808',
  '99999999999999999999.99999999',
  '-92233720368.54775808',
];

const nastyNumber = fc.oneof(
  fc.constantFrom(...EDGES),
  fc.bigInt({ min: 10n ** 18n, max: 10n ** 25n }).map(String),
  fc.bigInt({ min: -(10n ** 25n), max: -1n }).map(String),
  fc
    .tuple(fc.bigInt({ min: 10n ** 9n, max: 10n ** 20n }), fc.integer({ min: 0, max: 99_999_999 }))
    .map(([units, fraction]) => `${units}.${String(fraction).padStart(8, '0')}`),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

interface Field {
  name: string;
  where: 'path' | 'query' | 'body';
  kind: 'id' | 'amount' | 'other';
  schema: Schema;
}
interface Schema {
  type?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
}
interface Operation {
  method: string;
  path: string;
  contentType?: string;
  fields: Field[];
}

function kindOf(name: string): Field['kind'] {
  if (ID_NAME.test(name)) return 'id';
  if (AMOUNT_NAME.test(name)) return 'amount';
  return 'other';
}

/** Operations that carry at least one id or amount field. */
function operationsOf(doc: any): Operation[] {
  const operations: Operation[] = [];
  for (const [route, methods] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const fields: Field[] = [];
      for (const parameter of op.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.in !== 'query') continue;
        fields.push({
          name: parameter.name,
          where: parameter.in,
          kind: kindOf(parameter.name),
          schema: parameter.schema ?? {},
        });
      }
      const content = op.requestBody?.content ?? {};
      const contentType = Object.keys(content)[0];
      const properties: Record<string, Schema> = contentType
        ? (content[contentType].schema?.properties ?? {})
        : {};
      for (const [name, schema] of Object.entries(properties)) {
        fields.push({ name, where: 'body', kind: kindOf(name), schema });
      }
      if (fields.some((f) => f.kind !== 'other'))
        operations.push({ method: method.toUpperCase(), path: route, contentType, fields });
    }
  }
  return operations;
}

/** An id that exists: the test user's (also a record id of most tables on a fresh store). */
let plausibleId = '1';

/** A value the rest of the schema accepts, chosen by name and type. */
function plausible(field: Field): unknown {
  const byName: Record<string, unknown> = {
    coin: 'USDT',
    from: 'USDT',
    to: 'BTC',
    asset: 'USDT',
    quote: 'USDT',
    network: 'TRC20',
    symbol: 'BTCUSDT',
    side: 'buy',
    type: 'limit',
    hash: `0x${'ab'.repeat(32)}`,
    paypassword: 'pay-1234',
    reason: 'bounds test',
    idempotency_key: randomUUID(),
    key: randomUUID(),
    disabled: false,
    frozen: false,
    banned: false,
  };
  if (field.kind === 'id') return plausibleId;
  if (field.kind === 'amount') return '1';
  if (field.name in byName) return byName[field.name];
  const schema = field.schema.anyOf?.[0] ?? field.schema;
  if (schema.enum?.length) return schema.enum[0];
  if (schema.type === 'boolean') return false;
  if (schema.type === 'integer' || schema.type === 'number') return 1;
  if (schema.type === 'array') return [];
  if (schema.type === 'object') return {};
  return 'x';
}

interface Answer {
  status: number;
  body: { code?: number; msg?: string; data?: unknown } | undefined;
}

describe.each(DIALECTS)('64-bit edges of ids and amounts on $name', ({ name, skip }) => {
  describe.skipIf(skip)('', () => {
    let server: TestServer;
    let operations: Operation[];
    let userToken: string;
    let userId: number;
    let staffToken: string;
    let voucher: Buffer;
    const countUploads = async () => (await storedNames(server)).length;

    beforeAll(async () => {
      // why: the demo coins and networks, so that the other fields of a request are valid.
      server = await startServer(name, {
        env: { ADMIN_USER: 'boss', ADMIN_PASSWORD: 'owner-pass-1', DEMO: 'on' },
      });
      staffToken = await signInOwner(server, 'boss', 'owner-pass-1');
      ({ token: userToken, uid: userId } = await registerAndLogin(server));
      plausibleId = String(userId);
      voucher = await pngImage();
      const doc = await (await fetch(`${server.url}/docs/json`)).json();
      operations = operationsOf(doc);
    }, 30_000);
    afterAll(() => server?.close());

    async function send(op: Operation, field: Field, value: string): Promise<Answer> {
      const isStaff = op.path.startsWith('/admin-api');
      const headers: Record<string, string> = { Lang: 'en-us' };
      if (isStaff) headers.Authorization = `Bearer ${staffToken}`;
      let route = op.path;
      const query = new URLSearchParams(isStaff ? {} : { token: userToken });
      const body: Record<string, unknown> = isStaff ? {} : { token: userToken };
      for (const f of op.fields) {
        const v = f === field ? value : plausible(f);
        if (f.where === 'path') route = route.replace(`{${f.name}}`, encodeURIComponent(String(v)));
        else if (f.where === 'query') query.set(f.name, String(v));
        else if (f.name !== 'voucher' && f.name !== 'token') body[f.name] = v;
      }
      const target = `${server.url}${route}${op.method === 'GET' ? `?${query}` : ''}`;
      let payload: FormData | string | undefined;
      if (op.method !== 'GET') {
        if (op.contentType?.startsWith('multipart/')) {
          const form = new FormData();
          for (const [k, v] of Object.entries(body)) form.append(k, String(v));
          form.append('voucher', new Blob([new Uint8Array(voucher)], { type: 'image/png' }), 'voucher.png');
          payload = form;
        } else {
          headers['content-type'] = 'application/json';
          payload = JSON.stringify(body);
        }
      }
      const response = await fetch(target, { method: op.method, headers, body: payload });
      const text = await response.text();
      let parsed: Answer['body'];
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed };
    }

    it('answers any string in every id and amount field with a refusal, never a 500', async () => {
      const started = Date.now();
      const uploadsBefore = await countUploads();
      const targets = operations.flatMap((op) =>
        op.fields.filter((f) => f.kind !== 'other').map((field) => ({ op, field })),
      );
      expect(targets.length).toBeGreaterThan(40);
      const failures: string[] = [];
      let depositsAccepted = 0;
      for (const { op, field } of targets) {
        const label = `${op.method} ${op.path} ${field.where}:${field.name}`;
        for (const value of field.kind === 'id' ? PAST_ID : PAST_AMOUNT) {
          const answer = await send(op, field, value);
          if (answer.body?.code === 1000) failures.push(`${label} = ${value} accepted (${answer.status})`);
          if (answer.status >= 500 || answer.body?.code === INTERNAL_ERROR)
            failures.push(`${label} = ${value} → ${answer.status} ${JSON.stringify(answer.body)}`);
        }
        await fc
          .assert(
            fc.asyncProperty(nastyNumber, async (value) => {
              const answer = await send(op, field, value);
              if (op.contentType?.startsWith('multipart/') && answer.body?.code === 1000) depositsAccepted++;
              expect(answer.status, `${label} = ${JSON.stringify(value)}`).toBeLessThan(500);
              expect(answer.body?.code, `${label} = ${JSON.stringify(value)}`).not.toBe(INTERNAL_ERROR);
            }),
            { numRuns: propertyRuns(RUNS_PER_FIELD), seed: 20261127 },
          )
          .catch((error: Error) =>
            failures.push(`${label}: ${error.message.split('\n').slice(0, 3).join(' ')}`),
          );
      }
      expect(failures).toEqual([]);
      // why: a deposit refused for its amount must not leave its voucher image behind.
      expect(await countUploads()).toBe(uploadsBefore + depositsAccepted);
      expect(Date.now() - started).toBeLessThan(60_000);
    }, 90_000);
  });

  describe.skipIf(skip)('deposits past the bound', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startWalletServer(name);
    }, 30_000);
    afterAll(() => server?.close());

    it('refuse the amount with the translated error and keep no voucher image', async () => {
      const count = async () => (await storedNames(server)).length;
      const user = await newUser(server);
      const voucher = { data: await pngImage(), filename: 'voucher.png' };
      const before = await count();
      for (const amount of ['10000000000', '92233720368.54775807', '92233720368.54775808']) {
        const answer = await postDeposit(
          server,
          user.token,
          { coin: 'USDT', network: 'TRC20', amount },
          voucher,
        );
        expect(answer.status, amount).toBeLessThan(500);
        expect(answer.code, amount).toBe(RESULT_CODES.AMOUNT_INVALID.code);
        expect(answer.msg, amount).toBe('Please enter a valid amount.');
      }
      // why: the service refuses what the schema would, before it stores the image.
      await expect(
        walletOf(server).submitDeposit({ userId: BigInt(user.uid) } as never, {
          coin: 'USDT',
          network: 'TRC20',
          amount: MAX_AMOUNT_ATOMS + 1n,
          hash: '',
          voucher: { ...voucher, mimetype: 'image/png' },
        }),
      ).rejects.toMatchObject({ key: 'AMOUNT_INVALID' });
      expect(await count()).toBe(before);
      const accepted = await postDeposit(
        server,
        user.token,
        { coin: 'USDT', network: 'TRC20', amount: '9999999999.99999999' },
        voucher,
      );
      expect(accepted.code).toBe(1000);
      expect(await count()).toBe(before + 1);
    });
  });
});
