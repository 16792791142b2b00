import fs from 'node:fs';
import path from 'node:path';
import { RESULT_CODES, SUCCESS_MESSAGES } from '@bourse/shared';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, LOCALE_NAMES, LOCALES, normalizeLocale } from '../src/index.ts';
import { translateServer } from '../src/server.ts';

type Tree = { [key: string]: string | Tree };
const RESOURCES = path.resolve(import.meta.dirname, '../resources');
const NAMESPACES = fs.readdirSync(RESOURCES);

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const full = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(full, value);
    else for (const [k, v] of flatten(value, full)) out.set(k, v);
  }
  return out;
}

function load(namespace: string, locale: string): Map<string, string> {
  return flatten(JSON.parse(fs.readFileSync(path.join(RESOURCES, namespace, `${locale}.json`), 'utf8')));
}

/** Values that may legitimately read the same in English and another language. */
const SAME_AS_ENGLISH_OK =
  /^(Bourse|UID|USDT|BTC|ETH|[A-Z]{2,6}(\/[A-Z]{2,6})?|\{\{\w+\}\}|[\d\s.,:%+\-–/×()]+|OK|E-?mail|Email|App|Online|Chat|Logo|ID|IP|Level|Support|Code|Service|Notification|Notifications|Total|Max|Min|Index|Simulated|Info|Version|Token|Hotline|Mail|Whitepaper)$/i;

describe('locales', () => {
  it('has the nine locales, ja-JP first in line as default', () => {
    expect(LOCALES).toHaveLength(9);
    expect(DEFAULT_LOCALE).toBe('ja-JP');
    expect(Object.keys(LOCALE_NAMES).sort()).toEqual([...LOCALES].sort());
    expect(normalizeLocale('EN-us')).toBe('en-US');
    expect(normalizeLocale('zh-tw')).toBe('zh-TW');
    expect(normalizeLocale('xx')).toBe('ja-JP');
    expect(normalizeLocale(undefined)).toBe('ja-JP');
  });

  it.each(NAMESPACES)('%s: every locale has every key, with no empty value', (namespace) => {
    const reference = load(namespace, 'en-US');
    expect(reference.size).toBeGreaterThan(0);
    for (const locale of LOCALES) {
      const resource = load(namespace, locale);
      const missing = [...reference.keys()].filter((k) => !resource.has(k));
      const extra = [...resource.keys()].filter((k) => !reference.has(k));
      const empty = [...resource.entries()].filter(([, v]) => v.trim() === '').map(([k]) => k);
      expect({ locale, missing, extra, empty }).toEqual({ locale, missing: [], extra: [], empty: [] });
    }
  });

  it.each(NAMESPACES)('%s: no English left in the other locales', (namespace) => {
    const english = load(namespace, 'en-US');
    for (const locale of LOCALES.filter((l) => l !== 'en-US')) {
      const resource = load(namespace, locale);
      const untranslated = [...english.entries()]
        .filter(
          ([key, value]) =>
            resource.get(key) === value && /[a-z]{3}/i.test(value) && !SAME_AS_ENGLISH_OK.test(value.trim()),
        )
        .map(([key]) => key);
      expect({ locale, untranslated }).toEqual({ locale, untranslated: [] });
    }
  });

  it('names distinct pages and states distinctly in every locale', () => {
    // why: two menu entries with one name (personal notifications and the operator's
    // announcements), or an order state that repeats its status, read as one thing said twice.
    const pairs = [
      ['user.menu.notices', 'user.menu.announcements'],
      ['notices.title', 'content.announcements'],
      ['notices.detailTitle', 'content.announcement'],
      ['perp.order.price', 'perp.order.bandPrice'],
    ] as const;
    for (const locale of LOCALES) {
      const web = load('web', locale);
      const same = pairs.filter(([a, b]) => web.get(a) === web.get(b)).map((pair) => pair.join(' = '));
      expect({ locale, same }).toEqual({ locale, same: [] });
    }
  });

  it.each(NAMESPACES)('%s: placeholders match across locales', (namespace) => {
    const english = load(namespace, 'en-US');
    const names = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const locale of LOCALES) {
      const resource = load(namespace, locale);
      for (const [key, value] of english)
        expect(names(resource.get(key)!), `${locale} ${key}`).toEqual(names(value));
    }
  });

  it('has a server message for every result code and success message in every locale', () => {
    for (const locale of LOCALES) {
      const resource = load('server', locale);
      for (const key of Object.keys(RESULT_CODES))
        expect(resource.has(`errors.${key}`), `${locale} errors.${key}`).toBe(true);
      for (const key of SUCCESS_MESSAGES)
        expect(resource.has(`success.${key}`), `${locale} success.${key}`).toBe(true);
    }
    expect(translateServer('en-US', 'errors.ACCOUNT_FROZEN')).toBe(
      'Your account is frozen. Please contact the administrator.',
    );
    expect(translateServer('ja-JP', 'errors.NO_SUCH_KEY')).toBe('errors.NO_SUCH_KEY');
  });
});
