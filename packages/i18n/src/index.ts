/**
 * The nine locales of Bourse. ja-JP is the default and the fallback. Resources live as JSON in
 * `resources/<namespace>/<locale>.json`: `web` for the customer app, `server` for API messages.
 */
export const LOCALES = [
  'zh-CN',
  'en-US',
  'fr-FR',
  'de-DE',
  'it-IT',
  'ja-JP',
  'ko-KR',
  'tr-TR',
  'zh-TW',
] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'ja-JP';

/** Each language's name in its own language, for the language picker. */
export const LOCALE_NAMES: Record<Locale, string> = {
  'zh-CN': '简体中文',
  'en-US': 'English',
  'fr-FR': 'Français',
  'de-DE': 'Deutsch',
  'it-IT': 'Italiano',
  'ja-JP': '日本語',
  'ko-KR': '한국어',
  'tr-TR': 'Türkçe',
  'zh-TW': '繁體中文',
};

const BY_LOWER = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));

/**
 * Maps any header or stored value (`ja-jp`, `EN-us`, `zh-tw`) to a supported locale, or the default.
 * Only exact locale tags match; a bare language (`en`) picks the first locale of that language.
 */
export function normalizeLocale(value: string | null | undefined): Locale {
  if (!value) return DEFAULT_LOCALE;
  const first = value.split(',')[0]!.trim().toLowerCase().replace('_', '-');
  const exact = BY_LOWER.get(first);
  if (exact) return exact;
  const lang = first.split('-')[0];
  return LOCALES.find((l) => l.toLowerCase().startsWith(`${lang}-`)) ?? DEFAULT_LOCALE;
}

export function isLocale(value: string): value is Locale {
  return (LOCALES as readonly string[]).includes(value);
}

/** A resource file's texts: nested objects whose leaves are the texts. */
export type TextTree = { [key: string]: string | TextTree };

/** The text at a dotted `key` (`markets.welcome.title`) of `tree`, or undefined. */
export function lookupText(tree: TextTree, key: string): string | undefined {
  let node: string | TextTree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}
