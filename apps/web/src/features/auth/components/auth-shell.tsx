import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { IconGlobe } from '../../../shared/ui/icons.tsx';
import { Page } from '../../../shared/ui/page.tsx';

/** Login and register share this frame: back arrow, title, language icon, brand heading. */
export function AuthShell({
  title,
  heading,
  subtitle,
  children,
}: {
  title: string;
  heading: string;
  subtitle: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Page
      title={title}
      className="auth-page"
      right={
        <button
          type="button"
          className="icon-button"
          aria-label={t('settings.language.title')}
          onClick={() => navigate(PATHS.language)}
          data-testid="auth-language"
        >
          <IconGlobe />
        </button>
      }
    >
      <div className="auth-hero">
        <div className="brand-mark" aria-hidden="true">
          B
        </div>
        <h2 className="auth-heading">{heading}</h2>
        <p className="auth-subtitle">{subtitle}</p>
      </div>
      {children}
    </Page>
  );
}
