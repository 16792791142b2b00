import type { Ticker } from '@bourse/shared';
import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { ChangeChip } from './change-chip.tsx';

type Flash = { direction: 'up' | 'down'; count: number } | null;

/** Remembers the last price and tells which way it moved, so the cell can flash. */
function usePriceFlash(price: string): Flash {
  const previous = useRef(price);
  const [flash, setFlash] = useState<Flash>(null);
  useEffect(() => {
    const before = Number(previous.current);
    const now = Number(price);
    previous.current = price;
    if (now === before || Number.isNaN(now) || Number.isNaN(before)) return;
    setFlash((f) => ({ direction: now > before ? 'up' : 'down', count: (f?.count ?? 0) + 1 }));
  }, [price]);
  return flash;
}

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
  // why: two animation names alternate so that two moves the same way in a row both flash.
  const flashClass = flash ? ` flash-${flash.direction}-${flash.count % 2}` : '';
  return (
    <li className="market-row" data-testid={`market-row-${ticker.symbol}`}>
      <div className="market-pair">
        <span className="market-base">{ticker.base}</span>
        <span className="market-quote">/{ticker.quote}</span>
        {showSimulatedTag && ticker.source === 'simulated' && (
          <span className="simulated-tag">{t('markets.simulated')}</span>
        )}
      </div>
      <div className={`market-price num${flashClass}`}>{formatDecimal(ticker.price, priceDecimals)}</div>
      <div className="market-change">
        <ChangeChip change={ticker.change24h} />
      </div>
    </li>
  );
});
