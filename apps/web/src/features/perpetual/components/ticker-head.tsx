import type { PerpMarket, PerpTicker } from '@bourse/shared/api';
import { useTranslation } from 'react-i18next';
import { formatCountdown, secondsLeft } from '../../../shared/format/countdown.ts';
import { useFormatPercent } from '../../../shared/format/format-percent.ts';
import { useServerNow } from '../../../shared/server-clock.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { usePriceFlash } from '../../../shared/ui/use-price-flash.ts';

/**
 * The market's live figures: the mark (what positions are valued and liquidated at) large, then
 * index and last, the funding rate with a countdown to the next payment, and a tag when the index
 * comes from the demo's simulated feed.
 */
export function TickerHead({ market, ticker }: { market: PerpMarket; ticker: PerpTicker | undefined }) {
  const { t } = useTranslation();
  const formatPercent = useFormatPercent();
  const now = useServerNow();
  const mark = ticker?.mark ?? null;
  const flash = usePriceFlash(mark ?? '');
  const price = (value: string | null | undefined, testId: string) =>
    value ? (
      <Amount value={value} decimals={market.price_decimals} testId={testId} />
    ) : (
      <span data-testid={testId}>—</span>
    );
  return (
    <section className="perp-ticker" aria-label={t('perp.ticker.label')}>
      <div className="perp-ticker-main">
        <span className="perp-mark-label">{t('perp.ticker.mark')}</span>
        {mark ? (
          <Amount
            value={mark}
            decimals={market.price_decimals}
            className={`perp-mark ${flash}`}
            testId="perp-mark"
          />
        ) : (
          <span className="perp-mark" data-testid="perp-mark">
            —
          </span>
        )}
        {market.simulated && (
          <span className="perp-tag" data-testid="perp-simulated">
            {t('perp.ticker.simulated')}
          </span>
        )}
      </div>
      <dl className="perp-ticker-stats">
        <div>
          <dt>{t('perp.ticker.index')}</dt>
          <dd>{price(ticker?.index, 'perp-index')}</dd>
        </div>
        <div>
          <dt>{t('perp.ticker.last')}</dt>
          <dd>{price(ticker?.last, 'perp-last')}</dd>
        </div>
        <div>
          <dt>{t('perp.ticker.funding')}</dt>
          <dd className="num" data-testid="perp-funding-rate">
            {ticker ? formatPercent.ratio(ticker.funding_rate, { decimals: 4, isSigned: true }) : '—'}
          </dd>
        </div>
        <div>
          <dt>{t('perp.ticker.nextFunding')}</dt>
          <dd className="num" data-testid="perp-funding-countdown">
            {ticker
              ? formatCountdown(secondsLeft(ticker.next_funding_at, now), (days) =>
                  t('perp.ticker.days', { count: days }),
                )
              : '—'}
          </dd>
        </div>
      </dl>
    </section>
  );
}
