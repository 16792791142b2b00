import type { QueryClient } from '@tanstack/react-query';
import '../components/delivery.css';
import type { ContractDirection } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRealtimeStatus } from '../../../api/ws.ts';
import { PATHS } from '../../../shared/paths.ts';
import { useServerNow } from '../../../shared/server-clock.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { IconArrowDown, IconArrowUp, IconWifiOff } from '../../../shared/ui/icons.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { usePriceFlash } from '../../../shared/ui/use-price-flash.ts';
import { contractListQueryOptions, useContractList } from '../api/get-contract-list.ts';
import { deliveryPageQueryOptions, useDeliveryPage } from '../api/get-delivery-page.ts';
import { useIndexStream } from '../api/subscribe-index.ts';
import { IndexChart } from '../components/index-chart.tsx';
import { useSourceLabel } from '../components/labels.tsx';
import { OpenContracts } from '../components/open-contracts.tsx';
import { pairLabel } from '../components/pair-label.ts';
import { TrialCard } from '../components/trial-card.tsx';

/** The markets and the open contracts are asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(deliveryPageQueryOptions());
  void client.prefetchInfiniteQuery(contractListQueryOptions('open'));
}

// why: the order sheet (its form, the request schema with zod, the popup and its animations) is
// most of this page's code and shows only on a tap; it loads apart, as soon as the user first
// touches or types on the page, so it is there by the time a buy button is tapped.
const loadOrderSheet = () => import('../components/order-sheet.tsx');
const OrderSheet = lazy(() => loadOrderSheet().then((m) => ({ default: m.OrderSheet })));
const INTENT_EVENTS = ['pointerdown', 'keydown', 'touchstart'] as const;

/** Fetches the order sheet's code on the first sign of the user's hand on the page. */
function usePreloadOrderSheet() {
  useEffect(() => {
    const preload = () => {
      for (const type of INTENT_EVENTS) document.removeEventListener(type, preload, true);
      void loadOrderSheet();
    };
    for (const type of INTENT_EVENTS)
      document.addEventListener(type, preload, { capture: true, passive: true });
    return () => {
      for (const type of INTENT_EVENTS) document.removeEventListener(type, preload, true);
    };
  }, []);
}

/** Keeps the chosen market's index live while the page shows it. */
function IndexStream({ symbol }: { symbol: string }) {
  useIndexStream(symbol);
  return null;
}

function LivePrice({ price, decimals }: { price: string; decimals: number }) {
  const flash = usePriceFlash(price);
  return <Amount value={price} decimals={decimals} className={`index-price ${flash}`} testId="index-price" />;
}

/**
 * `Contract/index`, the trade tab: pick a market, watch its live index, and buy up or down for
 * one of its periods. The open contracts count down below the chart; the rules of trial money
 * are stated on the page.
 */
export default function ContractPage() {
  const { t } = useTranslation();
  const delivery = useDeliveryPage();
  // why: the open contracts show below the chart once the page's data is in; asked for here,
  // their list arrives with that data instead of after it.
  useContractList('open');
  usePreloadOrderSheet();
  const status = useRealtimeStatus();
  const sourceLabel = useSourceLabel();
  const now = useServerNow();
  const [chosen, setChosen] = useState('');
  const [direction, setDirection] = useState<ContractDirection | null>(null);
  const markets = delivery.data?.markets ?? [];
  const market = markets.find((each) => each.symbol === chosen) ?? markets[0];

  const isStale =
    !!market &&
    (market.stale ||
      !market.index ||
      now - market.index.at > (delivery.data?.stale_after_ms ?? Number.POSITIVE_INFINITY));
  const canTrade = !!market && market.status === 'open' && !isStale && market.periods.length > 0;

  let content: ReactNode;
  if (delivery.isPending)
    content = (
      <div aria-busy="true">
        <Skeleton.Paragraph lineCount={3} animated />
        <Skeleton className="chart-skeleton-block" animated />
      </div>
    );
  else if (delivery.isError)
    content = <ErrorState message={delivery.error.message} onRetry={() => delivery.refetch()} />;
  else if (!market) content = <EmptyState message={t('delivery.noMarkets')} />;
  else
    content = (
      <>
        <IndexStream symbol={market.symbol} />
        {markets.length > 1 && (
          <div className="market-tabs" role="tablist" aria-label={t('delivery.market')}>
            {markets.map((each) => (
              <button
                key={each.symbol}
                type="button"
                role="tab"
                aria-selected={each.symbol === market.symbol}
                className={each.symbol === market.symbol ? 'market-tab is-active' : 'market-tab'}
                onClick={() => setChosen(each.symbol)}
                data-testid={`market-${each.symbol}`}
              >
                {pairLabel(each.symbol, each.base, each.quote)}
              </button>
            ))}
          </div>
        )}
        <section className="index-head" aria-live="off">
          <div className="index-head-main">
            <span className="index-label">
              {t('delivery.indexOf', { pair: pairLabel(market.symbol, market.base, market.quote) })}
            </span>
            {market.index ? (
              <LivePrice price={market.index.price} decimals={market.price_decimals} />
            ) : (
              <span className="index-price">—</span>
            )}
          </div>
          {market.index && (
            <span className="source-tag" data-testid="index-source" data-source={market.index.source}>
              {sourceLabel(market.index.source)}
            </span>
          )}
        </section>
        {(market.status !== 'open' || isStale) && (
          <p className="note" role="status" data-testid="market-blocked">
            {market.status !== 'open' ? t('delivery.marketClosed') : t('delivery.indexStale')}
          </p>
        )}
        <IndexChart
          key={market.symbol}
          symbol={market.symbol}
          decimals={market.price_decimals}
          label={t('delivery.chart.label', { pair: pairLabel(market.symbol, market.base, market.quote) })}
        />
        <OpenContracts />
        <TrialCard page={delivery.data} />
      </>
    );

  return (
    <Page
      title={t('delivery.title')}
      hasBack={false}
      className="contract-page"
      right={
        <Link to={PATHS.contractList} className="text-button nav-link" data-testid="nav-records">
          {t('delivery.records')}
        </Link>
      }
    >
      {status === 'reconnecting' && (
        <div className="connection-banner" role="status" data-testid="connection-banner">
          <IconWifiOff /> {t('delivery.reconnecting')}
        </div>
      )}
      <PullToRefresh onRefresh={() => delivery.refetch()}>{content}</PullToRefresh>
      <div className="trade-actions">
        <button
          type="button"
          className="trade-button is-up"
          disabled={!canTrade}
          onClick={() => setDirection('up')}
          data-testid="contract-up"
        >
          <IconArrowUp /> {t('delivery.buyUp')}
        </button>
        <button
          type="button"
          className="trade-button is-down"
          disabled={!canTrade}
          onClick={() => setDirection('down')}
          data-testid="contract-down"
        >
          <IconArrowDown /> {t('delivery.buyDown')}
        </button>
      </div>
      {delivery.data && market && direction && (
        <Suspense fallback={null}>
          <OrderSheet
            key={`${market.symbol}-${direction}`}
            page={delivery.data}
            market={market}
            direction={direction}
            isOpen
            onClose={() => setDirection(null)}
            onPlaced={() => setDirection(null)}
          />
        </Suspense>
      )}
    </Page>
  );
}
