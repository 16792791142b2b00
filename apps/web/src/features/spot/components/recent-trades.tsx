import type { SpotMarket } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { useRecentTrades } from '../api/live-market.ts';

const SHOWN = 15;

/**
 * The market's latest trades, newest first, each in the colour of the taker's side.
 * Memoised: the trade page renders again on every ticker push, the trades only for their own data.
 */
export const RecentTrades = memo(function RecentTrades({ market }: { market: SpotMarket }) {
  const { t, i18n } = useTranslation();
  const format = useFormatDecimal();
  const trades = useRecentTrades(market.symbol);
  const time = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit', second: '2-digit' }),
    [i18n.language],
  );
  const list = (trades.data ?? []).slice(0, SHOWN);
  return (
    <section className="recent-trades" aria-labelledby="trades-title">
      <h2 className="section-title" id="trades-title">
        {t('spot.trades.title')}
      </h2>
      <div className="trades-head">
        <span>{t('spot.trades.time')}</span>
        <span>{t('spot.book.price', { coin: market.quote })}</span>
        <span>{t('spot.book.qty', { coin: market.base })}</span>
      </div>
      {trades.isPending ? (
        <Skeleton.Paragraph lineCount={4} animated />
      ) : list.length === 0 ? (
        <p className="book-empty" data-testid="trades-empty">
          {trades.isError ? t('common.loadFailed') : t('spot.trades.empty')}
        </p>
      ) : (
        <ul className="trades-list" data-testid="recent-trades">
          {list.map((trade) => (
            <li key={trade.id} className="trades-row">
              <span className="num">{time.format(new Date(trade.at))}</span>
              <span className={`num is-${trade.side}`}>
                <span className="visually-hidden">{t(`spot.side.${trade.side}`)} </span>
                {format(trade.price, market.price_decimals)}
              </span>
              <span className="num">{format(trade.qty, market.qty_decimals)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});
