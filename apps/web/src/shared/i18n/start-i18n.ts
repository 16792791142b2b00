import { DEFAULT_LOCALE, LOCALES, type Locale } from '@bourse/i18n';
import type { i18n as I18n } from 'i18next';

export type Resource = { [key: string]: string | Resource };
export type LoadResource = (locale: Locale) => Promise<Resource>;

/** The locales loaded before the first render: the chosen one and the fallback, ja-JP. */
export function getStartLocales(locale: Locale): Locale[] {
  return locale === DEFAULT_LOCALE ? [locale] : [locale, DEFAULT_LOCALE];
}

/**
 * Starts `instance` on `locale` with that locale's texts and the fallback's (ja-JP), fetched in
 * parallel, so a key the chosen locale lacks shows in Japanese, never as its raw name.
 */
export async function startI18n(instance: I18n, locale: Locale, load: LoadResource): Promise<void> {
  const locales = getStartLocales(locale);
  const bundles = await Promise.all(locales.map((each) => load(each)));
  const resources = Object.fromEntries(
    locales.map((each, index) => [each, { translation: bundles[index] }] as const),
  );
  await instance.init({
    lng: locale,
    fallbackLng: DEFAULT_LOCALE,
    supportedLngs: [...LOCALES],
    resources,
    // why: the other locales are added when the user switches to them.
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
  });
}
