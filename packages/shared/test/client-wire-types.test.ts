/**
 * The wire is typed once, here in `@bourse/shared/api`: a front end that declares the shape of an
 * answer or a request again drifts from what the server sends. This test fails, naming
 * the file and the type, when a front end (apps/web, apps/admin)
 * - declares an interface or type alias named like one of the shared wire schemas, anywhere; or
 * - declares any interface or type alias in an `api/` folder, where the calls to the server live
 *   and only the shared types should describe what goes over the wire.
 * Client machinery that is not a wire shape (the HTTP client's options, a socket's status) is
 * listed below by file and name, each with its reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as wire from '../src/api/index.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const FRONT_ENDS = ['apps/web/src', 'apps/admin/src'];

/** `file: names` declared in an `api/` folder that describe no wire shape. */
const CLIENT_TYPES: Record<string, readonly string[]> = {
  // The HTTP client and the /ws socket themselves.
  'apps/web/src/api/http.ts': ['HttpHooks', 'Params', 'RequestOptions', 'Wire', 'SchemaName', 'Answer'],
  'apps/web/src/api/ws.ts': ['ConnectionStatus', 'Handler'],
  'apps/web/src/api/ws-frame.ts': ['ServerFrame'],
  'apps/web/src/api/wire-input.ts': ['WireValue', 'WireInput'],
  // Which list a page shows (announcements or help), not a field on the wire.
  'apps/web/src/features/content/api/content.ts': ['ContentKind'],
  // The result of checking a proof in the browser, computed from the shared InclusionProof.
  'apps/web/src/features/reserves/api/reserves.ts': ['VerifiedLine', 'Verification'],
  // The two fields the cursor helper reads of any history page; every shared page schema has them.
  'apps/web/src/api/history-pages.ts': ['HistoryPageAnswer'],
  // A book level as the page merges snapshots and deltas.
  'apps/web/src/features/spot/api/live-market.ts': ['Level'],
};

function allowed(file: string, name: string): boolean {
  return (CLIENT_TYPES[file] ?? []).includes(name);
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
      out.push(rel);
  }
  return out;
}

// why: a name then its generics, then `=`, `{` or `extends`; an import's `type X,` is no declaration.
const DECLARATION =
  /^[ \t]*(?:export[ \t]+)?(?:declare[ \t]+)?(interface|type)[ \t]+([A-Za-z_$][\w$]*)\s*(?:<[^;]*?>)?\s*(?:=|\{|extends\b)/gm;

/** Every interface and type alias a file declares (re-exports like `export type { X }` are not). */
export function declaredTypes(source: string): string[] {
  return [...source.matchAll(DECLARATION)].map((match) => match[2]);
}

/** The names of the shared wire schemas (every zod schema `@bourse/shared/api` exports). */
const SCHEMA_NAMES = new Set(
  Object.entries(wire)
    .filter(([, value]) => typeof value === 'object' && value !== null && '_zod' in value)
    .map(([name]) => name),
);

function violations(): string[] {
  const found: string[] = [];
  for (const file of FRONT_ENDS.flatMap(sourceFiles)) {
    const inApi = file.split('/').includes('api');
    for (const name of declaredTypes(fs.readFileSync(path.join(root, file), 'utf8'))) {
      if (allowed(file, name)) continue;
      if (SCHEMA_NAMES.has(name)) found.push(`${file}: ${name} is a shared wire schema; use its type`);
      else if (inApi) found.push(`${file}: ${name} declared in an api/ folder; use the shared wire types`);
    }
  }
  return found;
}

describe('front ends type the wire with the shared schemas only', () => {
  it('finds the declarations it is meant to find', () => {
    const source =
      "import {\n  type UserInfo,\n} from 'x';\nexport interface UserInfo {\n}\ntype Page<T> = { a: T };\nexport type { X };\n";
    expect(declaredTypes(source)).toEqual(['UserInfo', 'Page']);
    expect(SCHEMA_NAMES.has('UserInfo')).toBe(true);
    expect(SCHEMA_NAMES.has('WithdrawalList')).toBe(true);
  });

  it('no front end declares a wire type of its own', () => {
    expect(violations()).toEqual([]);
  });

  it('the allow lists name only declarations that still exist', () => {
    const stale = Object.entries(CLIENT_TYPES).flatMap(([file, names]) => {
      const full = path.join(root, file);
      const declared = fs.existsSync(full) ? declaredTypes(fs.readFileSync(full, 'utf8')) : [];
      return names.filter((name) => !declared.includes(name)).map((name) => `${file}: ${name}`);
    });
    expect(stale).toEqual([]);
  });
});
