import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApiDocument } from '../../../scripts/api-document.ts';

type Document = {
  paths: Record<string, Record<string, Record<string, any>>>;
  components: { securitySchemes: Record<string, unknown> };
};

/** Generates the client's types from `document` and type-checks `program` against them. */
async function typeCheck(document: Document, program: string): Promise<string[]> {
  const files = new Map([
    ['/client/api.ts', astToString(await openapiTS(document as any))],
    ['/client/call.ts', program],
  ]);
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts'],
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (name) => files.has(name) || ts.sys.fileExists(name);
  host.directoryExists = (name) => name === '/client' || ts.sys.directoryExists(name);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.getSourceFile = (name, version, onError) => {
    const text = files.get(name);
    return text === undefined
      ? getSourceFile(name, version, onError)
      : ts.createSourceFile(name, text, version, true);
  };
  const checked = ts.createProgram(['/client/call.ts'], options, host);
  return ts.getPreEmitDiagnostics(checked).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

// A client's withdrawal call: the request fields (a decimal string amount, an idempotency key),
// then the envelope of the answer, through the operation's name and its path alike.
const WITHDRAWAL_CALL = `
import type { operations, paths } from './api';

type Withdraw = paths['/apiv/Finance/tbhandle']['post'];
type Body = Withdraw['requestBody']['content']['application/json'];
type Answer = Withdraw['responses'][200]['content']['application/json'];

declare function call<B, A>(path: string, body: B): Promise<A>;

export async function withdraw(token: string): Promise<string | undefined> {
  const body: Body = {
    coin: 'USDT',
    type: 'address',
    address_id: '1',
    amount: '10.5',
    paypassword: 'secret',
    idempotency_key: 'withdraw-0001',
    token,
  };
  // @ts-expect-error the amount is a decimal string, never a number
  const wrong: Body = { ...body, amount: 10.5 };
  void wrong;
  const answer = await call<Body, Answer>('/apiv/Finance/tbhandle', body);
  const code: number = answer.code;
  const message: string = answer.msg;
  if (code !== 1000 || !answer.data) return message;
  const status: 'review' | 'passed' | 'rejected' = answer.data.status;
  const sameOperation: operations['requestWithdrawal'] = {} as Withdraw;
  void sameOperation;
  return \`\${answer.data.id} \${answer.data.amount} \${status}\`;
}
`;

describe('the API document as a typed client sees it', () => {
  let document: Document;
  beforeAll(async () => {
    document = (await buildApiDocument()) as unknown as Document;
  });

  it('generates types a withdrawal call type-checks against', async () => {
    expect(await typeCheck(document, WITHDRAWAL_CALL)).toEqual([]);
  });

  it('fails the call once the operation loses its request or answer schema', async () => {
    const withoutBody = structuredClone(document);
    delete withoutBody.paths['/apiv/Finance/tbhandle'].post.requestBody;
    expect(await typeCheck(withoutBody, WITHDRAWAL_CALL)).toContain(
      "Property 'content' does not exist on type 'undefined'.",
    );

    const withoutAnswer = structuredClone(document);
    delete withoutAnswer.paths['/apiv/Finance/tbhandle'].post.responses['200'].content;
    expect(await typeCheck(withoutAnswer, WITHDRAWAL_CALL)).toEqual([
      "Property 'application/json' does not exist on type 'undefined'.",
    ]);
  });

  it('names every operation, states its security and lists its result codes', () => {
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(
        ([method, operation]): Record<string, any> => ({ path, method, ...operation }),
      ),
    );
    const ids = operations.map((o) => o.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);

    const byId = (id: string) => operations.find((o) => o.operationId === id);
    expect(byId('requestWithdrawal')).toMatchObject({ path: '/apiv/Finance/tbhandle', method: 'post' });
    expect(byId('requestWithdrawal')?.security).toEqual([{ customerToken: [] }, { customerBearer: [] }]);
    expect(byId('login')?.security).toEqual([]);
    expect(byId('adminApproveWithdrawal')).toMatchObject({
      path: '/admin-api/withdrawals/{id}/approve',
      security: [{ staffBearer: [] }],
    });
    expect(byId('adminLogin')?.security).toEqual([]);

    // why: business errors travel with HTTP 200; the codes are listed, non-200 answers are shared responses.
    const keys = (id: string) => byId(id)?.['x-error-codes'].map((e: { key: string }) => e.key);
    expect(keys('placeDeliveryContract')).toEqual(
      expect.arrayContaining(['SESSION_INVALID', 'INDEX_STALE', 'USDT_INSUFFICIENT', 'INTERNAL_ERROR']),
    );
    expect(keys('getClientConfig')).toEqual(['PARAM_ERROR', 'PARAM_MISSING', 'INTERNAL_ERROR']);
    expect(keys('adminListAudit')).toEqual([
      'SESSION_INVALID',
      'PARAM_ERROR',
      'PARAM_MISSING',
      'INTERNAL_ERROR',
      'STAFF_FORBIDDEN',
    ]);
    expect(Object.keys(byId('login')?.responses ?? {})).toEqual(['200', '400', '429', '500']);
    expect(byId('login')?.responses['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    expect(byId('requestWithdrawal')?.responses['200'].description).toContain('3004 `BALANCE_INSUFFICIENT`');
  });
});
