import fs from 'node:fs';
import path from 'node:path';
import { RESULT_CODES, type ResultKey } from '@bourse/shared';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApiDocument } from '../../../scripts/api-document.ts';
import { type Analysis, analyse, createProgram, type RouteSource } from './route-errors-analyser.ts';

/**
 * Every `/apiv` and `/admin-api` route declares (`config.errors`, shown in the API document) every
 * business code its input schema and its handler can answer: the codes the source can raise
 * (route-errors-analyser.ts reads them with the TypeScript checker) must be among the declared ones.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SOURCE_ROOTS = [path.join(ROOT, 'apps/server/src'), path.join(ROOT, 'packages/shared/src')];
const FIXTURE = path.join(import.meta.dirname, 'fixtures/route-errors');
const PREFIXES = ['/apiv', '/admin-api'];
const RESULT_KEYS = new Set(Object.keys(RESULT_CODES));

/**
 * Codes a route may answer without declaring them, because the platform answers them for every
 * route before or around its handler.
 */
const ANSWERED_FOR_EVERY_ROUTE: Record<string, string> = {
  PARAM_ERROR: 'the schema validation and the error handler (any 4xx) answer it',
  PARAM_MISSING: 'the schema validation answers a missing field with it',
  SESSION_INVALID:
    'the customer and staff auth hooks answer it; the document adds it to every signed-in route',
  STAFF_FORBIDDEN: 'the staff hook answers it when the role lacks the route’s permission',
  TOO_MANY_REQUESTS: 'the error handler answers any 429 with it (rate limits of the platform and services)',
  NOT_FOUND: 'the not-found handler and the staff hook (a route without access) answer it',
  INTERNAL_ERROR: 'the error handler answers any fault of our own with it',
  SERVICE_UNAVAILABLE: 'a request that reaches a stopping node is answered with it',
};

/**
 * Codes the analyser finds on a route that cannot answer them, because they hinge on a value it does
 * not follow (a flag computed from an argument), as `METHOD /url CODE`. Each must still be found,
 * so an entry goes once the code behind it changes.
 */
const NOT_RAISED: Record<string, string> = {
  'POST /apiv/Login/upregister PHONE_EXISTS': 'the form registers in mode 1, so `isPhone` is false',
  'POST /apiv/Login/upregister_phone USERNAME_EXISTS': 'the form registers in mode 2, so `isPhone` is true',
  'POST /admin-api/identity/:id/reject DOCUMENT_NUMBER_MISMATCH':
    'a rejection carries no document number, so no number is compared',
  'POST /admin-api/identity/:id/reject DOCUMENT_NUMBER_INVALID':
    'a rejection carries no document number, so none is read',
  'POST /admin-api/identity/:id/reject DOCUMENT_COUNTRY_MISMATCH':
    'a rejection carries no issuing country, so no country is compared',
};

interface DocumentedRoute {
  method: string;
  url: string;
  declared: Set<string>;
}

/** The documented operations, with their declared codes (`x-error-codes`, openapi path syntax undone). */
function documentedRoutes(document: Record<string, unknown>): DocumentedRoute[] {
  const paths = document.paths as Record<string, Record<string, { 'x-error-codes'?: { key: string }[] }>>;
  const routes: DocumentedRoute[] = [];
  for (const [openapiPath, operations] of Object.entries(paths)) {
    const url = openapiPath.replace(/\{(\w+)\}/g, ':$1');
    if (!PREFIXES.some((prefix) => url.startsWith(`${prefix}/`))) continue;
    for (const [method, operation] of Object.entries(operations)) {
      routes.push({
        method: method.toUpperCase(),
        url,
        declared: new Set((operation['x-error-codes'] ?? []).map(({ key }) => key)),
      });
    }
  }
  return routes;
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => path.join(dir, file));
}

/** Codes a route can answer that it does not declare, each with the call path that raises it. */
function gapsOf(route: DocumentedRoute, codes: Map<string, string>): Map<string, string> {
  const gaps = new Map<string, string>();
  for (const [code, trail] of codes) {
    if (route.declared.has(code) || code in ANSWERED_FOR_EVERY_ROUTE) continue;
    if (`${route.method} ${route.url} ${code}` in NOT_RAISED) continue;
    gaps.set(code, trail);
  }
  return gaps;
}

function formatGaps(method: string, url: string, gaps: Map<string, string>): string {
  return `${method} ${url}: ${[...gaps.keys()].sort(byCode).join(', ')}`;
}

function byCode(a: string, b: string) {
  return RESULT_CODES[a as ResultKey].code - RESULT_CODES[b as ResultKey].code;
}

describe('declared route errors', () => {
  let analysis: Analysis;
  let matched: { route: DocumentedRoute; source: RouteSource; codes: Map<string, string> }[];

  // why: building the program and reading every route is one pass of the type checker; the cases
  // below only compare. It takes some 25 s of CPU, more on a shared machine.
  beforeAll(async () => {
    const document = await buildApiDocument();
    // why: one program for the source and the self-check's fixture, since building one is most of the time.
    const roots = [...SOURCE_ROOTS, FIXTURE];
    const program = createProgram(roots.flatMap(sourceFiles), path.join(ROOT, 'tsconfig.json'));
    analysis = analyse(program, roots, RESULT_KEYS);
    matched = documentedRoutes(document).map((route) => {
      const candidates = analysis.routes
        .filter((source) =>
          source.paths.some(
            (sourcePath) =>
              route.url.endsWith(sourcePath) &&
              PREFIXES.includes(route.url.slice(0, route.url.length - sourcePath.length)),
          ),
        )
        .filter((source) => source.method === route.method);
      if (candidates.length !== 1) {
        throw new Error(
          `${route.method} ${route.url}: ${candidates.length} registrations in the source match`,
        );
      }
      return { route, source: candidates[0], codes: analysis.codesOf(candidates[0]) };
    });
  }, 300_000);

  it('finds every documented route in the source', () => {
    expect(matched.length).toBeGreaterThan(100);
  });

  it('self-check: finds an undeclared code, and none the route cannot raise', () => {
    const fixture = analysis.routes.find((source) => source.file.startsWith(FIXTURE));
    if (!fixture) throw new Error('the fixture route was not found');
    const codes = analysis.codesOf(fixture);
    // raised: through a helper given a literal, a port wired to one class, the command kind sent;
    // not raised: the helper's other code, the unwired class's, the kind the route never sends.
    expect([...codes.keys()].sort()).toEqual([
      'AMOUNT_BELOW_MIN',
      'BALANCE_INSUFFICIENT',
      'SAVED_LIMIT_REACHED',
    ]);
    const route = { method: 'POST', url: '/apiv/fixture/withdraw', declared: new Set(['AMOUNT_BELOW_MIN']) };
    expect([...gapsOf(route, codes).keys()].sort()).toEqual(['BALANCE_INSUFFICIENT', 'SAVED_LIMIT_REACHED']);
  });

  it('every code listed as not raised is still found where it is listed', () => {
    const found = matched.flatMap(({ route, codes }) =>
      [...codes.keys()].map((code) => `${route.method} ${route.url} ${code}`),
    );
    expect(Object.keys(NOT_RAISED).filter((entry) => !found.includes(entry))).toEqual([]);
  });

  it.each(['/apiv/', '/admin-api/'])('every %s route declares the codes it can answer', (prefix) => {
    const report: string[] = [];
    for (const { route, codes } of matched) {
      if (!route.url.startsWith(prefix)) continue;
      const gaps = gapsOf(route, codes);
      if (gaps.size === 0) continue;
      report.push(formatGaps(route.method, route.url, gaps));
      for (const [code, trail] of gaps) report.push(`    ${code}: ${trail}`);
    }
    expect(report.join('\n')).toBe('');
  });
});
