import type { SpotMarket, SpotTicker } from '@bourse/shared/api';
import Popup from 'antd-mobile/es/components/popup';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';

/** The market switcher: a bottom sheet of the spot markets with their last price. */
export function MarketSheet({
  isOpen,
  markets,
  tickers,
  current,
  onPick,
  onClose,
}: {
  isOpen: boolean;
  markets: readonly SpotMarket[];
  tickers: readonly SpotTicker[];
  current: string;
  onPick: (symbol: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const format = useFormatDecimal();
  return (
    <Popup visible={isOpen} onMaskClick={onClose} bodyClassName="spot-sheet-body">
      <section className="spot-sheet" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 className="spot-sheet-title" id={titleId}>
          {t('spot.switcher.title')}
        </h2>
        <ul className="switcher-list" data-testid="market-sheet">
          {markets.map((market) => {
            const ticker = tickers.find((each) => each.symbol === market.symbol);
            const price = ticker?.last ?? ticker?.index ?? null;
            return (
              <li key={market.symbol}>
                <button
                  type="button"
                  className={market.symbol === current ? 'switcher-row is-active' : 'switcher-row'}
                  aria-current={market.symbol === current ? 'true' : undefined}
                  onClick={() => onPick(market.symbol)}
                  data-testid={`switch-${market.symbol}`}
                >
                  <span className="switcher-pair">
                    {market.base}
                    <span className="switcher-quote">/{market.quote}</span>
                  </span>
                  <span className="switcher-price num">
                    {price ? format(price, market.price_decimals) : '—'}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </section>
    </Popup>
  );
}
