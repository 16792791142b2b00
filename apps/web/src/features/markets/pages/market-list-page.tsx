import '../components/markets.css';
import type { Ticker } from '@bourse/shared';
import type { QueryClient } from '@tanstack/react-query';
import Button from 'antd-mobile/es/components/button';
import { type ReactNode, useCallback, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSpotTickers } from '../../../api/spot-tickers.ts';
import { useRealtimeStatus } from '../../../api/ws.ts';
import { PATHS } from '../../../shared/paths.ts';
import { getFavouriteMarkets, setFavouriteMarkets } from '../../../shared/storage.ts';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { IconSearch, IconWifiOff } from '../../../shared/ui/shell-icons.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useHasToken } from '../../../shared/use-session.ts';
import { tickersQueryOptions, useTickers } from '../api/get-tickers.ts';
import { useTickerStream } from '../api/subscribe-tickers.ts';
import { AnnouncementLine } from '../components/announcement-line.tsx';
import { MarketListSkeleton } from '../components/market-list-skeleton.tsx';
import { MarketRow } from '../components/market-row.tsx';

function WelcomeCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <section className="welcome-card">
      <h2 className="welcome-title">{t('markets.welcome.title')}</h2>
      <p className="welcome-text">{t('markets.welcome.text')}</p>
      <div className="welcome-actions">
        <Button color="primary" onClick={() => navigate(PATHS.register)} data-testid="welcome-register">
          {t('markets.welcome.register')}
        </Button>
        <Button fill="outline" onClick={() => navigate(PATHS.login)} data-testid="welcome-login">
          {t('markets.welcome.login')}
        </Button>
      </div>
    </section>
  );
}

type Filter = 'all' | 'favourites';

const NO_TICKERS: readonly Ticker[] = [];

/** The starred markets, kept in the browser and saved on every change. */
function useFavourites(): [ReadonlySet<string>, (symbol: string) => void] {
  const [favourites, setFavourites] = useState<ReadonlySet<string>>(() => new Set(getFavouriteMarkets()));
  const toggle = useCallback((symbol: string) => {
    setFavourites((current) => {
      const next = new Set(current);
      if (next.has(symbol)) next.delete(symbol);
      else next.add(symbol);
      setFavouriteMarkets([...next]);
      return next;
    });
  }, []);
  return [favourites, toggle];
}

/** The markets are asked for as soon as this page's code is in (app/routes.tsx). */
export function prefetch(client: QueryClient): void {
  void client.prefetchQuery(tickersQueryOptions());
}

/**
 * `Trade/tradelist`: every market with its last trade price, 24h change and volume from its own
 * trades (polled), the index beneath the price (live over `/ws`); search, favourites, and a tap
 * opens the trade page.
 */
export default function MarketListPage() {
  const { t } = useTranslation();
  const isSignedIn = useHasToken();
  const tickers = useTickers();
  const spotTickers = useSpotTickers();
  const status = useRealtimeStatus();
  const [favourites, toggleFavourite] = useFavourites();
  const [filter, setFilter] = useState<Filter>('all');
  const [search, setSearch] = useState('');
  useTickerStream();

  // why: the rows render in a background pass the browser can interrupt (a slow phone stays
  // responsive when the markets arrive, or the search narrows them); the skeleton holds until then.
  const shown = useDeferredValue(tickers.data);
  const all = shown ?? NO_TICKERS;
  const isCatchingUp = tickers.data !== undefined && shown === undefined;
  const isAllSimulated = all.length > 0 && all.every((ticker) => ticker.source === 'simulated');
  const needle = search.trim().toUpperCase();
  const list = all.filter(
    (ticker) =>
      (filter === 'all' || favourites.has(ticker.symbol)) &&
      (needle === '' || ticker.symbol.includes(needle) || `${ticker.base}/${ticker.quote}`.includes(needle)),
  );

  let content: ReactNode;
  if (tickers.isPending || isCatchingUp) content = <MarketListSkeleton />;
  else if (tickers.isError && all.length === 0)
    content = <ErrorState message={tickers.error.message} onRetry={() => tickers.refetch()} />;
  else if (all.length === 0) content = <EmptyState message={t('markets.empty')} />;
  else if (list.length === 0)
    content = (
      <EmptyState
        message={needle ? t('markets.noMatch') : t('markets.noFavourites')}
        testId="markets-none"
        action={
          filter === 'favourites' && !needle ? (
            <Button fill="outline" color="primary" onClick={() => setFilter('all')}>
              {t('markets.showAll')}
            </Button>
          ) : undefined
        }
      />
    );
  else
    content = (
      <ul className="market-list">
        {list.map((ticker) => (
          <MarketRow
            key={ticker.symbol}
            ticker={ticker}
            spot={spotTickers.data?.find((each) => each.symbol === ticker.symbol)}
            showSimulatedTag={!isAllSimulated}
            isFavourite={favourites.has(ticker.symbol)}
            onToggleFavourite={toggleFavourite}
          />
        ))}
      </ul>
    );

  return (
    <Page title={t('markets.title')} hasBack={false} className="markets-page">
      {status === 'reconnecting' && (
        <div className="connection-banner" role="status" data-testid="connection-banner">
          <IconWifiOff /> {t('markets.reconnecting')}
        </div>
      )}
      <PullToRefresh onRefresh={() => tickers.refetch()}>
        {!isSignedIn && <WelcomeCard />}
        <AnnouncementLine />
        {isAllSimulated && (
          <div className="market-source">
            <span className="simulated-tag" data-testid="simulated-tag">
              {t('markets.simulated')}
            </span>
          </div>
        )}
        <div className="market-tools">
          <div className="market-filter" role="tablist" aria-label={t('markets.filter')}>
            {(['all', 'favourites'] as const).map((each) => (
              <button
                key={each}
                type="button"
                role="tab"
                aria-selected={filter === each}
                className={filter === each ? 'market-filter-tab is-active' : 'market-filter-tab'}
                onClick={() => setFilter(each)}
                data-testid={`markets-filter-${each}`}
              >
                {each === 'all' ? t('markets.all') : t('markets.favourites')}
              </button>
            ))}
          </div>
          <label className="market-search">
            <IconSearch className="market-search-icon" />
            <span className="visually-hidden">{t('markets.search')}</span>
            <input
              type="search"
              className="market-search-input"
              value={search}
              onChange={(event) => setSearch(event.target.value)}
              placeholder={t('markets.searchPlaceholder')}
              autoComplete="off"
              data-testid="markets-search"
            />
          </label>
        </div>
        <div className="market-head">
          <span className="market-head-pair">{t('markets.columns.pair')}</span>
          <span className="market-head-price">{t('markets.columns.price')}</span>
          <span className="market-head-change">{t('markets.columns.change')}</span>
        </div>
        {content}
        {isAllSimulated && <p className="market-footnote">{t('markets.simulatedNote')}</p>}
      </PullToRefresh>
    </Page>
  );
}
