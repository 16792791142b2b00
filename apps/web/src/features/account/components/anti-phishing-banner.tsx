import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';

/** The user's anti-phishing code at the top of notifications, or a hint to set one. */
export function AntiPhishingBanner({ code }: { code: string }) {
  const { t } = useTranslation();
  return (
    <p className="anti-phishing-banner" data-testid="anti-phishing-banner">
      {code ? (
        t('notices.antiPhishing', { code })
      ) : (
        <Link to={PATHS.antiPhishing}>{t('notices.antiPhishingHint')}</Link>
      )}
    </p>
  );
}
