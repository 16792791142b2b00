import type { PerpMarket } from '@bourse/shared/api';
import Popup from 'antd-mobile/es/components/popup';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** The market picker: a bottom sheet of the perpetual markets. */
export function MarketSheet({
  isOpen,
  markets,
  current,
  onPick,
  onClose,
}: {
  isOpen: boolean;
  markets: readonly PerpMarket[];
  current: string;
  onPick: (symbol: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Popup visible={isOpen} onMaskClick={onClose} bodyClassName="perp-sheet-body">
      <section className="perp-sheet" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 className="perp-sheet-title" id={titleId}>
          {t('perp.switcher.title')}
        </h2>
        <ul className="perp-list" data-testid="perp-market-sheet">
          {markets.map((market) => (
            <li key={market.symbol}>
              <button
                type="button"
                className={market.symbol === current ? 'perp-market-row is-active' : 'perp-market-row'}
                aria-current={market.symbol === current ? 'true' : undefined}
                onClick={() => onPick(market.symbol)}
                data-testid={`perp-switch-${market.symbol}`}
              >
                <span>{`${market.base}/${market.quote}`}</span>
                <span className="perp-muted">{t('perp.maxLeverage', { leverage: market.max_leverage })}</span>
              </button>
            </li>
          ))}
        </ul>
      </section>
    </Popup>
  );
}
