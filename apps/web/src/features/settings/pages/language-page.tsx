import { LOCALE_NAMES, LOCALES, type Locale } from '@bourse/i18n';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLocale, getCurrentLocale } from '../../../shared/i18n/i18n.ts';
import { IconCheck } from '../../../shared/ui/icons.tsx';
import { Page } from '../../../shared/ui/page.tsx';

/** `/Login/setlang`: the nine languages, each in its own name; a tap switches at once. */
export default function LanguagePage() {
  const { t, i18n } = useTranslation();
  const [pending, setPending] = useState<Locale | null>(null);
  const current = pending ?? getCurrentLocale();

  async function choose(locale: Locale) {
    if (locale === getCurrentLocale()) return;
    setPending(locale);
    try {
      await changeLocale(locale);
    } finally {
      setPending(null);
    }
  }

  return (
    <Page title={t('settings.language.title')}>
      <ul className="menu" aria-label={t('settings.language.title')} data-current={i18n.language}>
        {LOCALES.map((locale) => {
          const isCurrent = locale === current;
          return (
            <li key={locale}>
              <button
                type="button"
                className={isCurrent ? 'menu-item is-selected' : 'menu-item'}
                lang={locale}
                aria-pressed={isCurrent}
                onClick={() => choose(locale)}
                data-testid={`lang-${locale}`}
              >
                <span className="menu-label">{LOCALE_NAMES[locale]}</span>
                {isCurrent && <IconCheck className="menu-check" />}
              </button>
            </li>
          );
        })}
      </ul>
    </Page>
  );
}
