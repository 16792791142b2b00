import { CORE_LOADERS, PART_LOADERS } from 'virtual:bourse-texts';
import { DEFAULT_LOCALE, type Locale, normalizeLocale } from '@bourse/i18n';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { getStoredLanguage, setStoredLanguage } from '../storage.ts';
import { type Resource, startI18n } from './start-i18n.ts';

// why: per locale, the core namespaces are one chunk fetched at start (with the fallback's); every
// other namespace is a chunk of its own, fetched with the first route that names it, through the
// locale's table of loaders (fetched with the first such route too).
function loaderFor(locale: Locale, part = 'core'): () => Promise<Resource> {
  const missing = () => new Error(`missing web texts ${part} for ${locale}`);
  if (part === 'core') {
    const core = CORE_LOADERS[locale];
    if (!core) throw missing();
    return core;
  }
  const table = PART_LOADERS[locale];
  if (!table) throw missing();
  return async () => {
    const loader = (await table())[part];
    if (!loader) throw missing();
    return loader();
  };
}

/** The lazily loaded namespaces the pages visited so far needed (loaded again on a switch). */
const usedNamespaces = new Set<string>();
/** `<locale>:<namespace>` parts loaded (or being loaded). */
const loadedParts = new Map<string, Promise<void>>();

async function loadNamespaces(locale: Locale, namespaces: Iterable<string>): Promise<void> {
  await Promise.all(
    [...namespaces].map((ns) => {
      const key = `${locale}:${ns}`;
      let loading = loadedParts.get(key);
      if (!loading) {
        loading = loaderFor(locale, ns)().then((resource) => {
          i18next.addResourceBundle(locale, 'translation', resource, true, true);
        });
        loading.catch(() => loadedParts.delete(key));
        loadedParts.set(key, loading);
      }
      return loading;
    }),
  );
}

/**
 * Loads `namespaces` (beyond the core ones) for the current locale and the ja-JP fallback; a
 * route's page waits for it (app/routes.tsx), so its texts are there at its first render.
 */
export async function ensureNamespaces(namespaces: readonly string[]): Promise<void> {
  for (const ns of namespaces) usedNamespaces.add(ns);
  const locale = getCurrentLocale();
  await Promise.all([...new Set([locale, DEFAULT_LOCALE])].map((each) => loadNamespaces(each, namespaces)));
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
  if (!i18next.hasResourceBundle(locale, 'translation')) {
    i18next.addResourceBundle(locale, 'translation', await loaderFor(locale)(), true, true);
  }
  await loadNamespaces(locale, usedNamespaces);
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
