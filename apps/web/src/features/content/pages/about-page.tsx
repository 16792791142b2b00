import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../../shared/paths.ts';
import { useClaims, useContentPage } from '../api/content.ts';
import { ContentArticlePage } from '../components/content-views.tsx';

/**
 * `/Index/aboutus` (spec §2): the operator's page, with the marketing claims they make. A claim
 * appears only when configured; the reserve figure only while published proof of reserves backs
 * it, and it links there.
 */
export default function AboutPage() {
  const { t, i18n } = useTranslation();
  const claims = useClaims().data;
  const hasClaims = Boolean(claims && (claims.leverage_max || claims.reserve_btc));
  const number = (value: string) => new Intl.NumberFormat(i18n.language).format(Number(value));
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
