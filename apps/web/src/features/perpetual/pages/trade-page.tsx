import '../components/perp.css';
import type { PerpMarket } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { IconChevronDown } from '../../../shared/ui/icons.tsx';
import { Page } from '../../../shared/ui/page.tsx';
import { EmptyState, ErrorState } from '../../../shared/ui/state-block.tsx';
import { usePerpAccount } from '../api/get-perp-account.ts';
import { usePerpMarkets } from '../api/get-perp-markets.ts';
import { usePerpTicker } from '../api/get-perp-ticker.ts';
import { LeverageControl } from '../components/leverage-control.tsx';
import { MarketSheet } from '../components/market-sheet.tsx';
import { OpenOrders } from '../components/open-orders.tsx';
import { OrderBook } from '../components/order-book.tsx';
import { OrderForm } from '../components/order-form.tsx';
import { PERP_PATHS } from '../components/paths.ts';
import { marketSpec } from '../components/perp-math.ts';
import { PositionPanel } from '../components/position-card.tsx';
import { TickerHead } from '../components/ticker-head.tsx';

/** One market's desk: its live figures, leverage, the order form, the position and the open orders. */
function PerpDesk({ market, markets }: { market: PerpMarket; markets: readonly PerpMarket[] }) {
  const { t } = useTranslation();
  const spec = useMemo(() => marketSpec(market), [market]);
  const ticker = usePerpTicker(market.symbol);
  const account = usePerpAccount(market.symbol);
  const [picked, setPicked] = useState<{ price: string; at: number } | null>(null);
  return (
    <div data-testid="perp-trade-ready" data-symbol={market.symbol}>
      <TickerHead market={market} ticker={ticker.data} />
      <nav className="perp-links" aria-label={t('perp.links')}>
        <Link to={PERP_PATHS.orderList} data-testid="perp-link-orders">
          {t('perp.list.title')}
        </Link>
        <Link to={PERP_PATHS.funding} data-testid="perp-link-funding">
          {t('perp.funding.title')}
        </Link>
        <Link to={PERP_PATHS.liquidations} data-testid="perp-link-liquidations">
          {t('perp.liquidations.title')}
        </Link>
      </nav>
      <OrderBook market={market} onPick={(price) => setPicked({ price, at: Date.now() })} />
      <LeverageControl
        key={`${market.symbol}-${account.data?.leverage ?? 0}`}
        market={market}
        account={account.data}
      />
      <OrderForm
        key={market.symbol}
        market={market}
        spec={spec}
        ticker={ticker.data}
        account={account.data}
        isAccountPending={account.isPending}
        picked={picked}
      />
      <PositionPanel
        market={market}
        spec={spec}
        ticker={ticker.data}
        account={account.data}
        isPending={account.isPending}
        isError={account.isError}
        onRetry={() => account.refetch()}
      />
      <OpenOrders account={account.data} markets={markets} isPending={account.isPending} />
    </div>
  );
}

/**
 * `Trade/trans?symbol=…`, the perpetual order page: the market picker, mark / index / last and
 * funding, leverage 1–5x, long or short with every order type and the cost before sending, the
 * position with its live PnL, and the open orders and waiting triggers.
 */
export default function PerpTradePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const markets = usePerpMarkets();
  const [isSwitching, setIsSwitching] = useState(false);
  const list = markets.data ?? [];
  const wanted = (params.get('symbol') ?? '').toUpperCase();
  const market = list.find((each) => each.symbol === wanted) ?? list[0];
  const pair = market ? `${market.base}/${market.quote}` : t('perp.title');

  let content: ReactNode;
  if (markets.isPending)
    content = (
      <div aria-busy="true" data-testid="perp-trade-loading">
        <Skeleton.Paragraph lineCount={3} animated />
        <Skeleton.Paragraph lineCount={6} animated />
      </div>
    );
  else if (markets.isError)
    content = <ErrorState message={markets.error.message} onRetry={() => markets.refetch()} />;
  else if (!market) content = <EmptyState message={t('perp.noMarkets')} />;
  else content = <PerpDesk key={market.symbol} market={market} markets={list} />;

  return (
    <Page
      className="perp-page"
      title={
        <button
          type="button"
          className="perp-pair-switch"
          onClick={() => setIsSwitching(true)}
          disabled={list.length === 0}
          aria-haspopup="dialog"
          aria-label={t('perp.switcher.open', { pair })}
          data-testid="perp-pair-switch"
        >
          {t('perp.titleWithPair', { pair })}
          <IconChevronDown />
        </button>
      }
    >
      {content}
      <MarketSheet
        isOpen={isSwitching}
        markets={list}
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
