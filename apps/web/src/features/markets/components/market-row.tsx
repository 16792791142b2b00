import type { Ticker } from '@bourse/shared';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { usePriceFlash } from '../../../shared/ui/use-price-flash.ts';
import { ChangeChip } from './change-chip.tsx';

export const MarketRow = memo(function MarketRow({
  ticker,
  priceDecimals,
  showSimulatedTag,
}: {
  ticker: Ticker;
  priceDecimals: number;
  showSimulatedTag: boolean;
}) {
  const { t } = useTranslation();
  const formatDecimal = useFormatDecimal();
  const flash = usePriceFlash(ticker.price);
  return (
    <li className="market-row" data-testid={`market-row-${ticker.symbol}`}>
      <div className="market-pair">
        <span className="market-base">{ticker.base}</span>
        <span className="market-quote">/{ticker.quote}</span>
        {showSimulatedTag && ticker.source === 'simulated' && (
          <span className="simulated-tag">{t('markets.simulated')}</span>
        )}
      </div>
      <div className={`market-price num ${flash}`}>{formatDecimal(ticker.price, priceDecimals)}</div>
      <div className="market-change">
        <ChangeChip change={ticker.change24h} />
      </div>
    </li>
  );
});
