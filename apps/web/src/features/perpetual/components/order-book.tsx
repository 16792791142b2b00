import type { PerpMarket } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { usePerpDepth } from '../api/get-perp-depth.ts';

/** Levels shown on each side, bids and asks side by side as phone traders read them. */
const LEVELS = 6;

/** The book's best bids and asks; tapping a level puts its price into the order form. */
export function OrderBook({ market, onPick }: { market: PerpMarket; onPick: (price: string) => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const format = useFormatDecimal();
  const depth = usePerpDepth(market.symbol);
  const side = (levels: readonly (readonly [string, string])[], kind: 'bid' | 'ask') => (
    <ul
      className={`perp-book-side is-${kind}`}
      aria-label={t(kind === 'bid' ? 'perp.book.bids' : 'perp.book.asks')}
    >
      {levels.length === 0 ? (
        <li className="perp-muted">{t(kind === 'bid' ? 'perp.book.noBids' : 'perp.book.noAsks')}</li>
      ) : (
        levels.slice(0, LEVELS).map(([price, qty]) => (
          <li key={price}>
            <button
              type="button"
              className="perp-book-row"
              onClick={() => onPick(price)}
              aria-label={t('perp.book.pick', { price: format(price, market.price_decimals) })}
              data-testid={`perp-book-${kind}-${price}`}
            >
              <span className="perp-book-price num">{format(price, market.price_decimals)}</span>
              <span className="num">{format(qty, market.qty_decimals)}</span>
            </button>
          </li>
        ))
      )}
    </ul>
  );
  return (
    <section aria-labelledby={titleId} data-testid="perp-book">
      <h2 className="perp-section-title" id={titleId}>
        {t('perp.book.title')}
      </h2>
      {depth.isPending ? (
        <Skeleton.Paragraph lineCount={3} animated />
      ) : depth.isError && !depth.data ? (
        <p className="perp-empty" role="alert">
          {t('common.loadFailed')}{' '}
          <button type="button" className="text-button" onClick={() => depth.refetch()}>
            {t('common.retry')}
          </button>
        </p>
      ) : (
        <div className="perp-book">
          {side(depth.data?.bids ?? [], 'bid')}
          {side(depth.data?.asks ?? [], 'ask')}
        </div>
      )}
    </section>
  );
}
