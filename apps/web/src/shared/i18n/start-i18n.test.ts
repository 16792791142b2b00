import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_LOCALE, type Locale } from '@bourse/i18n';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { getStartLocales, type Resource, startI18n } from './start-i18n.ts';

const RESOURCES = path.resolve(import.meta.dirname, '../../../../../packages/i18n/resources/web');
const readResource = (locale: Locale): Resource =>
  JSON.parse(fs.readFileSync(path.join(RESOURCES, `${locale}.json`), 'utf8'));

describe('starting i18next', () => {
  it('loads the ja-JP fallback beside any other locale, and only ja-JP for ja-JP', () => {
    expect(DEFAULT_LOCALE).toBe('ja-JP');
    expect(getStartLocales('en-US')).toEqual(['en-US', 'ja-JP']);
    expect(getStartLocales('ja-JP')).toEqual(['ja-JP']);
  });

  it('shows the ja-JP text of a key the active locale lacks, not the raw key', async () => {
    const japanese = readResource('ja-JP');
    const english = readResource('en-US');
    // the active locale without one key
    const { title: _dropped, ...englishNotFound } = english.notFound as Resource;
    const loaded: Locale[] = [];
    const instance = i18next.createInstance();
    await startI18n(instance, 'en-US', async (locale) => {
      loaded.push(locale);
      return locale === 'en-US' ? { ...english, notFound: englishNotFound } : readResource(locale);
    });

    expect(loaded.sort()).toEqual(['en-US', 'ja-JP']);
    expect(instance.language).toBe('en-US');
    expect(instance.t('notFound.title')).toBe((japanese.notFound as Resource).title);
    expect(instance.t('notFound.title')).not.toBe('notFound.title');
    expect(instance.t('notFound.text')).toBe((english.notFound as Resource).text);
  });
});
