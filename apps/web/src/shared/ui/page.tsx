import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { IconBack } from './shell-icons.tsx';
import { useBack } from './use-back.ts';

export interface PageProps {
  title: ReactNode;
  /** Tab pages have no back arrow; every other page has one. */
  hasBack?: boolean;
  /** Extra action on the right of the nav bar (kept to one icon). */
  right?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A page with the nav bar every screen shares: back arrow, title, optional right action. */
export function Page({ title, hasBack = true, right, children, className }: PageProps) {
  const { t } = useTranslation();
  const goBack = useBack();
  return (
    <div className={className ? `page ${className}` : 'page'}>
      <header className="nav-bar">
        <div className="nav-bar-side">
          {hasBack && (
            <button type="button" className="icon-button" aria-label={t('common.back')} onClick={goBack}>
              <IconBack />
            </button>
          )}
        </div>
        <h1 className="nav-bar-title">{title}</h1>
        <div className="nav-bar-side nav-bar-side-right">{right}</div>
      </header>
      <main className="page-body">{children}</main>
    </div>
  );
}
