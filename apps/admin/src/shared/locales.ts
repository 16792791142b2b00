import { DEFAULT_LOCALE, LOCALES, type Locale } from '@bourse/i18n';

/** The tab order staff know: the required fallback first, then by how many readers use each. */
const TAB_ORDER: readonly string[] = [
  DEFAULT_LOCALE,
  'en-US',
  'zh-CN',
  'zh-TW',
  'ko-KR',
  'fr-FR',
  'de-DE',
  'it-IT',
  'tr-TR',
];
const rank = (locale: Locale) => {
  const index = TAB_ORDER.indexOf(locale);
  return index === -1 ? TAB_ORDER.length : index;
};

/**
 * The locales a text is written in on the back office's multi-language forms (notices, content,
 * launchpad projects), one tab each. The set is the platform's (`@bourse/i18n`), so a locale
 * added there gets its tab (last) without touching the back office.
 */
export const TEXT_LOCALES: readonly Locale[] = [...LOCALES].sort((a, b) => rank(a) - rank(b));
