import type { Ticker } from '@bourse/shared';
import type { SpotTicker } from '@bourse/shared/api';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { PATHS, withQuery } from '../../../shared/paths.ts';
import { IconStar } from '../../../shared/ui/shell-icons.tsx';
import { usePriceFlash } from '../../../shared/ui/use-price-flash.ts';
import { ChangeChip } from './change-chip.tsx';
import { useFormatVolume } from './format-volume.ts';

/**
 * One market: the pair with its 24h volume, the last trade price with the index beneath it, and
 * the 24h change; the row opens the trade page. Before the market's first trade the index stands
 * in as the price, and the line beneath says so.
 */
export const MarketRow = memo(function MarketRow({
  ticker,
  spot,
  showSimulatedTag,
  isFavourite,
  onToggleFavourite,
}: {
  ticker: Ticker;
  spot: SpotTicker | undefined;
  showSimulatedTag: boolean;
  isFavourite: boolean;
  onToggleFavourite: (symbol: string) => void;
}) {
  const { t } = useTranslation();
  const formatDecimal = useFormatDecimal();
  const formatVolume = useFormatVolume();
  const last = spot?.last ?? null;
  const price = last ?? ticker.price;
  const flash = usePriceFlash(price);
  const pair = `${ticker.base}/${ticker.quote}`;
  return (
    <li className="market-row" data-testid={`market-row-${ticker.symbol}`}>
      <button
        type="button"
        className={isFavourite ? 'market-star is-on' : 'market-star'}
        aria-pressed={isFavourite}
        aria-label={t('markets.favourite', { pair })}
        onClick={() => onToggleFavourite(ticker.symbol)}
        data-testid={`favourite-${ticker.symbol}`}
      >
        <IconStar isFilled={isFavourite} />
      </button>
      <Link
        to={withQuery(PATHS.spotTrade, { symbol: ticker.symbol })}
        className="market-link"
        data-testid={`market-link-${ticker.symbol}`}
      >
        <div className="market-pair">
          <span className="market-base">{ticker.base}</span>
          <span className="market-quote">/{ticker.quote}</span>
          <span className="market-volume num" data-testid={`market-volume-${ticker.symbol}`}>
            {t('markets.volume', { value: formatVolume(spot?.volume_24h ?? '0') })}
          </span>
          {showSimulatedTag && ticker.source === 'simulated' && (
            <span className="simulated-tag">{t('markets.simulated')}</span>
          )}
        </div>
        <div className="market-prices">
          <span
            className={`market-price num ${flash}`}
            data-testid={`market-price-${ticker.symbol}`}
            data-kind={last ? 'last' : 'index'}
          >
            {formatDecimal(price, ticker.priceDecimals)}
          </span>
          <span className="market-index num" data-testid={`market-index-${ticker.symbol}`}>
            {last
              ? t('markets.indexLine', { price: formatDecimal(ticker.price, ticker.priceDecimals) })
              : t('markets.noTrades')}
          </span>
        </div>
        <div className="market-change">
          <ChangeChip change={last && spot ? spot.change_24h : ticker.change24h} />
        </div>
      </Link>
    </li>
  );
});
