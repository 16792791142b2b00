import '../components/perp.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatPercent } from '../../../shared/format/format-percent.ts';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { usePerpFunding } from '../api/get-funding.ts';
import { usePerpMarkets } from '../api/get-perp-markets.ts';
import { pairLabel, SideTag } from '../components/labels.tsx';
import { PERP_PATHS } from '../components/paths.ts';

/**
 * `Trade/transfunding`: the user's funding payments, newest first — the market, the position's
 * side and size, the rate and mark they were paid at, and the amount (negative paid, positive received).
 */
export default function PerpFundingPage() {
  const { t } = useTranslation();
  const formatPercent = useFormatPercent();
  const funding = usePerpFunding();
  const markets = usePerpMarkets();
  const formatTime = useFormatTime('short');
  const list = funding.data?.pages.flatMap((page) => page.list) ?? [];

  let content: ReactNode;
  if (funding.isPending) content = <ListSkeleton />;
  else if (funding.isError && list.length === 0)
    content = <ErrorState message={funding.error.message} onRetry={() => funding.refetch()} />;
  else if (list.length === 0)
    content = (
      <EmptyState
        message={t('perp.funding.empty')}
        action={
          <Link to={PERP_PATHS.trade} className="text-button">
            {t('perp.list.trade')}
          </Link>
        }
      />
    );
  else
    content = (
      <>
        <ul className="perp-list" data-testid="perp-funding-list">
          {list.map((payment) => {
            const market = markets.data?.find((each) => each.symbol === payment.symbol);
            return (
              <li key={payment.id} className="perp-row">
                <div className="perp-row-body">
                  <span className="perp-row-head">
                    <SideTag side={payment.side} />
                    <span>{pairLabel(payment.symbol, markets.data)}</span>
                    <span className="perp-muted num">{formatTime(payment.at)}</span>
                  </span>
                  <dl className="perp-row-grid">
                    <div>
                      <dt>{t('perp.funding.amount')}</dt>
                      <dd>
                        <Amount value={payment.amount} decimals={8} isSigned hasTone />
                      </dd>
                    </div>
                    <div>
                      <dt>{t('perp.funding.rate')}</dt>
                      <dd className="num">
                        {formatPercent.ratio(payment.rate, { decimals: 4, isSigned: true })}
                      </dd>
                    </div>
                    <div>
                      <dt>{t('perp.funding.qty')}</dt>
                      <dd>
                        <Amount value={payment.qty} decimals={market?.qty_decimals ?? 8} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t('perp.funding.mark')}</dt>
                      <dd>
                        <Amount value={payment.mark} decimals={market?.price_decimals ?? 8} />
                      </dd>
                    </div>
                  </dl>
                </div>
              </li>
            );
          })}
        </ul>
        <LoadMore query={funding} />
      </>
    );

  return (
    <Page title={t('perp.funding.title')} className="perp-page">
      <p className="perp-hint">{t('perp.funding.explain')}</p>
      <PullToRefresh onRefresh={() => funding.refetch()}>{content}</PullToRefresh>
    </Page>
  );
}
