import type { SpotMarket } from '@bourse/shared/api';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useTranslation } from 'react-i18next';
import { useFormatDecimal } from '../../../shared/format/format-decimal.ts';
import { useDepth } from '../api/live-market.ts';
import { type BookRow, bookRows, sideDepth } from './order-math.ts';

/** Levels shown on each side: enough to read the book beside the form on a phone. */
const LEVELS = 7;

function Side({
  rows,
  side,
  market,
  onPick,
}: {
  rows: readonly BookRow[];
  side: 'ask' | 'bid';
  market: SpotMarket;
  onPick: (price: string) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatDecimal();
  return (
    <ul className={`book-side is-${side}`} data-testid={`book-${side}s`}>
      {rows.map((row) => (
        <li key={row.price}>
          <button
            type="button"
            className="book-row"
            onClick={() => onPick(row.price)}
            aria-label={t('spot.book.pick', { price: format(row.price, market.price_decimals) })}
            data-testid={`book-${side}-${row.price}`}
            data-price={row.price}
          >
            <span className="book-bar" style={{ width: `${row.depth}%` }} aria-hidden="true" />
            <span className="book-price num">{format(row.price, market.price_decimals)}</span>
            <span className="book-qty num">{format(row.qty, market.qty_decimals)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The order book beside the form: asks above (lowest nearest the middle), bids below, each level
 * with a bar of the running depth. Tapping a level puts its price into the form.
 */
export function OrderBook({
  market,
  last,
  onPick,
}: {
  market: SpotMarket;
  last: string | null;
  onPick: (price: string) => void;
}) {
  const { t } = useTranslation();
  const format = useFormatDecimal();
  const depth = useDepth(market.symbol);
  const bids = depth.data?.bids ?? [];
  const asks = depth.data?.asks ?? [];
  const deeper = [sideDepth(bids, LEVELS), sideDepth(asks, LEVELS)].reduce((a, b) => (a > b ? a : b));
  // why: the best ask sits next to the middle, so the asks read from the highest down.
  const askRows = bookRows(asks, LEVELS, deeper).reverse();
  const bidRows = bookRows(bids, LEVELS, deeper);

  return (
    <section className="order-book" aria-labelledby="book-title" data-testid="order-book">
      <h2 className="visually-hidden" id="book-title">
        {t('spot.book.title')}
      </h2>
      <div className="book-head">
        <span>{t('spot.book.price', { coin: market.quote })}</span>
        <span>{t('spot.book.qty', { coin: market.base })}</span>
      </div>
      {depth.isPending ? (
        <Skeleton.Paragraph lineCount={8} animated />
      ) : depth.isError && !depth.data ? (
        <p className="book-empty" role="alert">
          {t('common.loadFailed')}
        </p>
      ) : (
        <>
          <div className="book-asks-frame">
            {askRows.length === 0 ? (
              <p className="book-empty">{t('spot.book.noAsks')}</p>
            ) : (
              <Side rows={askRows} side="ask" market={market} onPick={onPick} />
            )}
          </div>
          <div className="book-mid num" data-testid="book-last">
            {last ? format(last, market.price_decimals) : '—'}
          </div>
          {bidRows.length === 0 ? (
            <p className="book-empty">{t('spot.book.noBids')}</p>
          ) : (
            <Side rows={bidRows} side="bid" market={market} onPick={onPick} />
          )}
        </>
      )}
    </section>
  );
}
