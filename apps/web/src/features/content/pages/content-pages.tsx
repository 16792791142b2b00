// The announcement, help and operator pages: one chunk, as they are small and share their parts.

import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { PATHS } from '../../../shared/paths.ts';
import { useClaims, useContentItem, useContentPage } from '../api/content.ts';
import { ContentArticlePage, ContentListPage } from '../components/content-views.tsx';

/** `/Index/gglist` (spec §2): the operator's announcements, pinned first. */
export function AnnouncementListPage() {
  const { t } = useTranslation();
  return (
    <ContentListPage
      kind="announcement"
      title={t('content.announcements')}
      empty={t('content.noAnnouncements')}
      detailPath={PATHS.announcement}
    />
  );
}

/** `/Index/gginfo?id=` (spec §2): one announcement. */
export function AnnouncementPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const query = useContentItem('announcement', Number.isSafeInteger(id) ? id : 0);
  return <ContentArticlePage title={t('content.announcement')} query={query} />;
}

/** `/Index/help`: the help centre's articles. */
export function HelpListPage() {
  const { t } = useTranslation();
  return (
    <ContentListPage
      kind="help"
      title={t('content.help')}
      empty={t('content.noHelp')}
      detailPath={PATHS.helpArticle}
    />
  );
}

/** `/Index/helpinfo?id=`: one help article. */
export function HelpArticlePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? 0);
  const query = useContentItem('help', Number.isSafeInteger(id) ? id : 0);
  return <ContentArticlePage title={t('content.help')} query={query} showTime={false} />;
}

/**
 * `/Index/aboutus` (spec §2): the operator's page, with the marketing claims they make. A claim
 * appears only when configured; the reserve figure only while the latest published proof of
 * reserves holds at least that much (the server withholds it otherwise), and it links there.
 */
export function AboutPage() {
  const { t } = useTranslation();
  const formatDecimal = useFormatDecimal();
  const claims = useClaims().data;
  const hasClaims = Boolean(claims && (claims.leverage_max || claims.reserve_btc));
  // why: exactly as claimed ("25.2" stays 25.2, never a float's rounding), grouped by the locale.
  const number = (value: string) => formatDecimal(value, value.split('.')[1]?.length ?? 0);
  return (
    <ContentArticlePage
      title={t('content.aboutUs')}
      query={useContentPage('aboutus')}
      showTime={false}
      before={
        hasClaims && claims ? (
          <div className="claims" data-testid="claims">
            {claims.leverage_max && (
              <div className="claim" data-testid="claim-leverage">
                <span className="claim-figure">
                  {t('content.leverageFigure', { x: number(claims.leverage_max) })}
                </span>
                <span className="claim-label">{t('content.leverageLabel')}</span>
              </div>
            )}
            {claims.reserve_btc && (
              <Link to={PATHS.reserves} className="claim" data-testid="claim-reserve">
                <span className="claim-figure">{number(claims.reserve_btc)} BTC</span>
                <span className="claim-label">{t('content.reserveLabel')}</span>
                <span className="claim-link">{t('content.reserveEvidence')}</span>
              </Link>
            )}
          </div>
        ) : undefined
      }
    />
  );
}

/** `/Index/privacy` (spec §1): the privacy policy, public. */
export function PrivacyPage() {
  const { t } = useTranslation();
  return <ContentArticlePage title={t('terms.privacy')} query={useContentPage('privacy')} showTime={false} />;
}

/** `/Index/terms` (spec §1): the terms of service in force, public (the register page links here). */
export function TermsPage() {
  const { t } = useTranslation();
  return <ContentArticlePage title={t('terms.terms')} query={useContentPage('terms')} showTime={false} />;
}

/** `/Index/whitepaper` (spec §1): the whitepaper, public. */
export function WhitepaperPage() {
  const { t } = useTranslation();
  return (
    <ContentArticlePage title={t('terms.whitepaper')} query={useContentPage('whitepaper')} showTime={false} />
  );
}

// `/Index/msb` (spec §2): the operator's MSB registration, its text and certificate image.
export { MsbPage } from './msb-page.tsx';
