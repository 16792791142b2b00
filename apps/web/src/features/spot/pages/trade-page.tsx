import type { QueryClient } from '@tanstack/react-query';
import '../components/spot.css';
import type { SpotMarket, SpotTicker } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { memo, type ReactNode, useCallback, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { spotTickersQueryOptions, useSpotTickers } from '../../../api/spot-tickers.ts';
import { PATHS } from '../../../shared/paths.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { IconChevronDown } from '../../../shared/ui/icons.tsx';
import { lazySheet } from '../../../shared/ui/lazy-sheet.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { usePriceFlash } from '../../../shared/ui/use-price-flash.ts';
import { spotMarketsQueryOptions, useSpotMarkets } from '../api/get-spot-markets.ts';
import { useDepth } from '../api/live-market.ts';
import { CandleChart } from '../components/candle-chart.tsx';
import { ChangeText } from '../components/change-text.tsx';
import { OpenOrders } from '../components/open-orders.tsx';
import { OrderBook } from '../components/order-book.tsx';
import { OrderForm } from '../components/order-form.tsx';
import { RecentTrades } from '../components/recent-trades.tsx';

const { Sheet: MarketSheet } = lazySheet(() =>
  import('../components/market-sheet.tsx').then((module) => module.MarketSheet),
);

function TickerHead({ market, ticker }: { market: SpotMarket; ticker: SpotTicker | undefined }) {
  const { t } = useTranslation();
  const last = ticker?.last ?? null;
  const flash = usePriceFlash(last ?? '');
  return (
    <section className="spot-ticker" aria-label={t('spot.ticker.label')}>
      <div className="spot-ticker-main">
        {last ? (
          <Amount
            value={last}
            decimals={market.price_decimals}
            className={`spot-last ${flash}`}
            testId="spot-last"
          />
        ) : (
          <span className="spot-last" data-testid="spot-last">
            —
          </span>
        )}
        <ChangeText change={ticker?.change_24h ?? '0'} testId="spot-change" />
        {/* why: the line is there before the index is known, so nothing below it (the order
            form) moves under a finger when the index arrives. */}
        <span className="spot-index" data-testid="spot-index">
          {t('spot.ticker.index')}{' '}
          {ticker?.index ? <Amount value={ticker.index} decimals={market.price_decimals} /> : '—'}
        </span>
      </div>
      <dl className="spot-ticker-stats">
        <div>
          <dt>{t('spot.ticker.high')}</dt>
          <dd>
            {ticker?.high_24h ? <Amount value={ticker.high_24h} decimals={market.price_decimals} /> : '—'}
          </dd>
        </div>
        <div>
          <dt>{t('spot.ticker.low')}</dt>
          <dd>
            {ticker?.low_24h ? <Amount value={ticker.low_24h} decimals={market.price_decimals} /> : '—'}
          </dd>
        </div>
        <div>
          <dt>{t('spot.ticker.volume', { coin: market.base })}</dt>
          <dd>
            <Amount value={ticker?.volume_24h ?? '0'} decimals={market.qty_decimals} testId="spot-volume" />
          </dd>
        </div>
      </dl>
    </section>
  );
}

/**
 * The order form and the book side by side, sharing the book's best prices and tapped price.
 * Memoised on its plain props: the page renders again on every ticker push, the desk only when its
 * prices change.
 */
const TradeDesk = memo(function TradeDesk({
  market,
  referencePrice,
  lastPrice,
}: {
  market: SpotMarket;
  referencePrice: string | null;
  lastPrice: string | null;
}) {
  const [picked, setPicked] = useState<{ price: string; at: number } | null>(null);
  const depth = useDepth(market.symbol);
  const onPick = useCallback((price: string) => setPicked({ price, at: Date.now() }), []);
  return (
    <div className="trade-desk">
      <OrderForm
        key={market.symbol}
        market={market}
        picked={picked}
        referencePrice={referencePrice}
        lastPrice={lastPrice}
        bestAsk={depth.data?.asks[0]?.[0] ?? null}
        bestBid={depth.data?.bids[0]?.[0] ?? null}
      />
      <OrderBook market={market} last={lastPrice} onPick={onPick} />
    </div>
  );
});

/**
 * Its children one pass after the rest of the page: the ticker above (the page's largest text)
 * paints without waiting for them, and React renders them in a background pass it can break up,
 * so the market's arrival does not block the main thread in one long task. They close the page,
 * so nothing above them moves when they arrive.
 */
function AfterFirstPaint({ children }: { children: ReactNode }) {
  return useDeferredValue(true, false) ? children : null;
}

/** The markets and their tickers are asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(spotMarketsQueryOptions());
  void client.prefetchQuery(spotTickersQueryOptions());
}

/**
 * `Trade/index?symbol=…`, the spot trade page: the market switcher and its 24h figures, the
 * K-line, the order form beside the book, the open orders and the latest trades.
 */
export default function TradePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const markets = useSpotMarkets();
  const tickers = useSpotTickers();
  const [isSwitching, setIsSwitching] = useState(false);
  const list = markets.data ?? [];
  const wanted = (params.get('symbol') ?? '').toUpperCase();
  const market = list.find((each) => each.symbol === wanted) ?? list[0];
  const ticker = tickers.data?.find((each) => each.symbol === market?.symbol);
  const pair = market ? `${market.base}/${market.quote}` : t('spot.title');

  let content: ReactNode;
  if (markets.isPending)
    content = (
      <div aria-busy="true">
        <Skeleton.Paragraph lineCount={3} animated />
        <Skeleton className="chart-skeleton-block is-short" animated />
      </div>
    );
  else if (markets.isError)
    content = (
      <div data-testid="spot-trade-ready">
        <ErrorState message={markets.error.message} onRetry={() => markets.refetch()} />
      </div>
    );
  else if (!market)
    content = (
      <div data-testid="spot-trade-ready">
        <EmptyState message={t('spot.noMarkets')} />
      </div>
    );
  else
    content = (
      <div data-testid="spot-trade-ready" data-symbol={market.symbol}>
        <TickerHead market={market} ticker={ticker} />
        {/* why: the perpetual page opens this coin's market when it has one, else its first market. */}
        <Link
          to={`${PATHS.perpTrade}?symbol=${market.symbol}`}
          className="text-button perp-link"
          data-testid="spot-to-perpetual"
        >
          {t('spot.toPerpetual')}
        </Link>
        <CandleChart
          key={market.symbol}
          symbol={market.symbol}
          decimals={market.price_decimals}
          label={t('spot.chart.label', { pair })}
        />
        <AfterFirstPaint>
          <TradeDesk
            key={market.symbol}
            market={market}
            referencePrice={ticker?.last ?? ticker?.index ?? null}
            lastPrice={ticker?.last ?? null}
          />
          <OpenOrders market={market} markets={list} />
          <RecentTrades market={market} />
        </AfterFirstPaint>
      </div>
    );

  return (
    <Page
      hasBack={false}
      className="spot-trade-page"
      title={
        <button
          type="button"
          className="pair-switch"
          onClick={() => setIsSwitching(true)}
          disabled={list.length === 0}
          aria-haspopup="dialog"
          aria-label={t('spot.switcher.open', { pair })}
          data-testid="pair-switch"
        >
          {pair}
          <IconChevronDown />
        </button>
      }
      right={
        <Link to={PATHS.orderList} className="text-button nav-link" data-testid="nav-orders">
          {t('spot.orders')}
        </Link>
      }
    >
      {content}
      <MarketSheet
        isOpen={isSwitching}
        markets={list}
        tickers={tickers.data ?? []}
        current={market?.symbol ?? ''}
        onPick={(symbol) => {
          setIsSwitching(false);
          setParams({ symbol }, { replace: true });
        }}
        onClose={() => setIsSwitching(false)}
      />
    </Page>
  );
}
