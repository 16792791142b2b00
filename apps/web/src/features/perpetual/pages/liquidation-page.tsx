import '../components/perp.css';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatTime } from '../../../shared/format/format-time.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { ListSkeleton } from '../../../shared/ui/list-skeleton.tsx';
import { LoadMore } from '../../../shared/ui/load-more.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { usePerpLiquidations } from '../api/get-liquidations.ts';
import { usePerpMarkets } from '../api/get-perp-markets.ts';
import { pairLabel, SideTag } from '../components/labels.tsx';
import { PERP_PATHS } from '../components/paths.ts';

/**
 * `Trade/transliq`: the user's liquidations (taken over at the bankruptcy price when equity reached
 * the maintenance margin) and auto-deleveraging records, newest first.
 */
export default function PerpLiquidationPage() {
  const { t } = useTranslation();
  const records = usePerpLiquidations();
  const markets = usePerpMarkets();
  const formatTime = useFormatTime('short');
  const list = records.data?.pages.flatMap((page) => page.list) ?? [];

  let content: ReactNode;
  if (records.isPending) content = <ListSkeleton />;
  else if (records.isError && list.length === 0)
    content = <ErrorState message={records.error.message} onRetry={() => records.refetch()} />;
  else if (list.length === 0)
    content = (
      <EmptyState
        message={t('perp.liquidations.empty')}
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
        <ul className="perp-list" data-testid="perp-liquidation-list">
          {list.map((record) => {
            const market = markets.data?.find((each) => each.symbol === record.symbol);
            const priceDecimals = market?.price_decimals ?? 8;
            return (
              <li key={record.id} className="perp-row" data-kind={record.kind}>
                <div className="perp-row-body">
                  <span className="perp-row-head">
                    <SideTag side={record.side} />
                    <span>{pairLabel(record.symbol, markets.data)}</span>
                    <span className="perp-tag">
                      {t(record.kind === 'adl' ? 'perp.liquidations.adl' : 'perp.liquidations.liquidation')}
                    </span>
                    <span className="perp-muted num">{formatTime(record.at)}</span>
                  </span>
                  <dl className="perp-row-grid">
                    <div>
                      <dt>{t('perp.liquidations.qty')}</dt>
                      <dd>
                        <Amount value={record.qty} decimals={market?.qty_decimals ?? 8} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t('perp.liquidations.entry')}</dt>
                      <dd>
                        <Amount value={record.entry_price} decimals={priceDecimals} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t('perp.liquidations.price')}</dt>
                      <dd>
                        <Amount value={record.price} decimals={priceDecimals} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t('perp.liquidations.mark')}</dt>
                      <dd>
                        <Amount value={record.mark} decimals={priceDecimals} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t('perp.liquidations.margin')}</dt>
                      <dd>
                        <Amount value={record.margin} decimals={8} />
                      </dd>
                    </div>
                    <div>
                      <dt>{t('perp.liquidations.pnl')}</dt>
                      <dd>
                        <Amount value={record.pnl} decimals={8} isSigned hasTone />
                      </dd>
                    </div>
                  </dl>
                </div>
              </li>
            );
          })}
        </ul>
        <LoadMore query={records} />
      </>
    );

  return (
    <Page title={t('perp.liquidations.title')} className="perp-page">
      <p className="perp-hint">{t('perp.liquidations.explain')}</p>
      <PullToRefresh onRefresh={() => records.refetch()}>{content}</PullToRefresh>
    </Page>
  );
}
