import '../components/markets.css';
import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRealtimeStatus } from '../../../api/ws.ts';
import { PATHS } from '../../../shared/paths.ts';
import { IconWifiOff } from '../../../shared/ui/icons.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { PullToRefresh } from '../../../shared/ui/pull-to-refresh.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { useHasToken } from '../../../shared/use-session.ts';
import { useTickers } from '../api/get-tickers.ts';
import { useTickerStream } from '../api/subscribe-tickers.ts';
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

export default function MarketListPage() {
  const { t } = useTranslation();
  const isSignedIn = useHasToken();
  const tickers = useTickers();
  const status = useRealtimeStatus();
  useTickerStream();

  const list = tickers.data ?? [];
  const isAllSimulated = list.length > 0 && list.every((ticker) => ticker.source === 'simulated');

  let content: ReactNode;
  if (tickers.isPending) content = <MarketListSkeleton />;
  else if (tickers.isError && list.length === 0)
    content = <ErrorState message={tickers.error.message} onRetry={() => tickers.refetch()} />;
  else if (list.length === 0) content = <EmptyState message={t('markets.empty')} />;
  else
    content = (
      <ul className="market-list">
        {list.map((ticker) => (
          <MarketRow
            key={ticker.symbol}
            ticker={ticker}
            priceDecimals={ticker.priceDecimals}
            showSimulatedTag={!isAllSimulated}
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
        {isAllSimulated && (
          <div className="market-source">
            <span className="simulated-tag" data-testid="simulated-tag">
              {t('markets.simulated')}
            </span>
          </div>
        )}
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
