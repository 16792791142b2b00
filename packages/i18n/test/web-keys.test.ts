import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

type Tree = { [key: string]: string | Tree };
const WEB_SRC = path.resolve(import.meta.dirname, '../../../apps/web/src');
const EN = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../resources/web/en-US.json'), 'utf8'),
) as Tree;

function leaves(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : leaves(value, `${prefix}${key}.`),
  );
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('customer app texts', () => {
  const known = new Set(leaves(EN));
  const namespaces = new Set(Object.keys(EN));
  // Every quoted 'namespace.key' in the app's code, whether passed to t() directly or chosen first.
  const used = new Map<string, string>();
  for (const file of sources(WEB_SRC)) {
    for (const match of fs
      .readFileSync(file, 'utf8')
      .matchAll(/['"`]([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9_]+)+)['"`]/g)) {
      const key = match[1]!;
      if (namespaces.has(key.split('.')[0]!)) used.set(key, path.relative(WEB_SRC, file));
    }
  }

  it('finds the keys it checks', () => {
    expect(used.size).toBeGreaterThan(50);
  });

  it('has a text for every key the code names', () => {
    const missing = [...used].filter(([key]) => !known.has(key)).map(([key, file]) => `${key} (${file})`);
    expect(missing).toEqual([]);
  });
});
