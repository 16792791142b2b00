import { DEFAULT_LOCALE, type Locale, normalizeLocale } from '@bourse/i18n';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getStoredLanguage, setStoredLanguage } from '../storage.ts';
import { type Resource, startI18n } from './start-i18n.ts';

// why: one chunk per locale; the current one and the fallback are fetched at start, others on switch.
const RESOURCE_LOADERS = import.meta.glob<Resource>('~i18n-web/*.json', { import: 'default' });

function loaderFor(locale: Locale): () => Promise<Resource> {
  const entry = Object.entries(RESOURCE_LOADERS).find(([path]) => path.endsWith(`/${locale}.json`));
  if (!entry) throw new Error(`missing web resources for ${locale}`);
  return entry[1];
}

type Listener = (locale: Locale) => void;
const listeners = new Set<Listener>();

/** The locale in use: the stored `lang`, or ja-JP. */
export function getCurrentLocale(): Locale {
  return normalizeLocale(i18next.language || getStoredLanguage());
}

/** Calls `listener` after every language switch (for the antd-mobile locale, colours, …). */
export function onLocaleChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function ensureLoaded(locale: Locale): Promise<void> {
  if (i18next.hasResourceBundle(locale, 'translation')) return;
  const resource = await loaderFor(locale)();
  i18next.addResourceBundle(locale, 'translation', resource, true, true);
}

/** The locale to start with: the stored `lang`, else ja-JP. */
export function getInitialLocale(): Locale {
  return normalizeLocale(getStoredLanguage() ?? DEFAULT_LOCALE);
}

/**
 * Loads the stored (or default) locale and the ja-JP fallback, and starts i18next. Resolves
 * before the first render.
 */
export async function initI18n(): Promise<Locale> {
  const locale = getInitialLocale();
  await startI18n(i18next.use(initReactI18next), locale, (each) => loaderFor(each)());
  document.documentElement.lang = locale;
  return locale;
}

/** Switches the language at once and remembers it under `lang`; the API `Lang` header follows. */
export async function changeLocale(locale: Locale): Promise<void> {
  await ensureLoaded(locale);
  setStoredLanguage(locale);
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
  for (const listener of listeners) listener(locale);
}

/** Value of the API `Lang` header: the stored language, lower-cased (`ja-jp`). */
export function getLangHeader(): string {
  return normalizeLocale(getStoredLanguage() ?? getCurrentLocale()).toLowerCase();
}

export { i18next };
