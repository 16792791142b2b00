import type { PerpSpec } from '@bourse/perp';
import type { PerpAccount, PerpMarket, PerpPosition, PerpTicker } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import Skeleton from 'antd-mobile/es/components/skeleton';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatPercent } from '../../../shared/format/format-percent.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useClosePosition } from '../api/close-position.ts';
import { SideTag } from './labels.tsx';
import { MarginSheet } from './margin-sheet.tsx';
import { atomsOf, liveFigures } from './perp-math.ts';
import { useSubmissionKey } from './submission-key.ts';
import { TpslSheet } from './tpsl-sheet.tsx';

type SheetName = 'close' | 'tpsl' | 'margin' | null;

/** The up / down tone of a signed ratio, as `Amount` gives a profit or loss (the sign says it too). */
function toneOf(ratio: string): string {
  const atoms = atomsOf(ratio);
  return atoms > 0n ? ' is-gain' : atoms < 0n ? ' is-loss' : '';
}

/**
 * The position on this market: side, size, entry, mark, liquidation and bankruptcy prices, margin,
 * and the unrealised PnL and ROE recomputed at every pushed mark; close, stop-loss / take-profit
 * and margin each in a bottom sheet.
 */
export function PositionPanel({
  market,
  spec,
  ticker,
  account,
  isPending,
  isError,
  onRetry,
}: {
  market: PerpMarket;
  spec: PerpSpec;
  ticker: PerpTicker | undefined;
  account: PerpAccount | undefined;
  isPending: boolean;
  isError: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const position = account?.position ?? null;
  return (
    <section aria-labelledby={titleId} data-testid="perp-position-panel">
      <h2 className="perp-section-title" id={titleId}>
        {t('perp.position.title')}
      </h2>
      {isPending ? (
        <div aria-busy="true">
          <Skeleton.Paragraph lineCount={3} animated />
        </div>
      ) : isError && !account ? (
        <p className="perp-empty" role="alert">
          {t('common.loadFailed')}{' '}
          <button type="button" className="text-button" onClick={onRetry}>
            {t('common.retry')}
          </button>
        </p>
      ) : position && account ? (
        <PositionCard market={market} spec={spec} ticker={ticker} account={account} position={position} />
      ) : (
        <p className="perp-empty" data-testid="perp-no-position">
          {t('perp.position.empty')}
        </p>
      )}
    </section>
  );
}

function PositionCard({
  market,
  spec,
  ticker,
  account,
  position,
}: {
  market: PerpMarket;
  spec: PerpSpec;
  ticker: PerpTicker | undefined;
  account: PerpAccount;
  position: PerpPosition;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [sheet, setSheet] = useState<SheetName>(null);
  const close = useClosePosition();
  const closeKey = useSubmissionKey();
  const live = liveFigures(spec, position, ticker?.mark);
  const formatPercent = useFormatPercent();
  const price = (value: string | null) =>
    value ? <Amount value={value} decimals={market.price_decimals} /> : <span>—</span>;

  function confirmClose() {
    close.mutate(
      { symbol: market.symbol, idempotency_key: closeKey.current() },
      {
        onError: (error) => closeKey.settle(error),
        onSuccess: (body) => {
          closeKey.settle();
          showToast(body.msg, 'success');
          setSheet(null);
        },
      },
    );
  }

  return (
    <article className="perp-position" data-testid="perp-position" data-side={position.side}>
      <div className="perp-position-head">
        <SideTag side={position.side} testId="perp-position-side" />
        <span>{`${market.base}/${market.quote}`}</span>
        <span className="perp-muted">{t('perp.position.leverage', { leverage: position.leverage })}</span>
      </div>
      <dl className="perp-grid">
        <div>
          <dt>{t('perp.position.size', { coin: market.base })}</dt>
          <dd>
            <Amount value={position.qty} decimals={market.qty_decimals} testId="perp-position-qty" />
          </dd>
        </div>
        <div>
          <dt>{t('perp.position.entry')}</dt>
          <dd>{price(position.entry_price)}</dd>
        </div>
        <div>
          <dt>{t('perp.position.mark')}</dt>
          <dd data-testid="perp-position-mark">{price(live.mark)}</dd>
        </div>
        <div>
          <dt>{t('perp.position.liquidation')}</dt>
          <dd data-testid="perp-position-liq">{price(position.liquidation_price)}</dd>
        </div>
        <div>
          <dt>{t('perp.position.bankruptcy')}</dt>
          <dd>{price(position.bankruptcy_price)}</dd>
        </div>
        <div>
          <dt>{t('perp.position.margin', { coin: market.quote })}</dt>
          <dd>
            <Amount value={position.margin} decimals={8} testId="perp-position-margin" />
          </dd>
        </div>
        <div>
          <dt>{t('perp.position.pnl', { coin: market.quote })}</dt>
          <dd>
            <Amount value={live.pnl} decimals={8} isSigned hasTone testId="perp-position-pnl" />
          </dd>
        </div>
        <div>
          <dt>{t('perp.position.roe')}</dt>
          <dd className={`num${toneOf(live.roe)}`} data-testid="perp-position-roe">
            {formatPercent.ratio(live.roe, { isSigned: true })}
          </dd>
        </div>
        <div>
          <dt>{t('perp.position.stopLoss')}</dt>
          <dd>{price(position.stop_loss)}</dd>
        </div>
        <div>
          <dt>{t('perp.position.takeProfit')}</dt>
          <dd>{price(position.take_profit)}</dd>
        </div>
      </dl>
      <div className="perp-actions">
        <Button fill="outline" onClick={() => setSheet('tpsl')} data-testid="perp-open-tpsl">
          {t('perp.position.setTpsl')}
        </Button>
        <Button fill="outline" onClick={() => setSheet('margin')} data-testid="perp-open-margin">
          {t('perp.position.adjustMargin')}
        </Button>
        <Button color="danger" onClick={() => setSheet('close')} data-testid="perp-open-close">
          {t('perp.position.close')}
        </Button>
      </div>
      <Popup
        visible={sheet === 'close'}
        onMaskClick={close.isPending ? undefined : () => setSheet(null)}
        bodyClassName="perp-sheet-body"
      >
        <section className="perp-sheet" role="dialog" aria-modal="true" aria-labelledby={titleId}>
          <h2 className="perp-sheet-title" id={titleId}>
            {t('perp.close.title')}
          </h2>
          <p className="perp-sheet-text" data-testid="perp-close-text">
            {t(position.side === 'long' ? 'perp.close.textLong' : 'perp.close.textShort', {
              qty: position.qty,
              coin: market.base,
            })}{' '}
            <Amount value={live.pnl} decimals={8} unit={market.quote} isSigned hasTone />
          </p>
          <div className="perp-sheet-actions">
            <Button
              block
              size="large"
              fill="outline"
              onClick={() => setSheet(null)}
              disabled={close.isPending}
            >
              {t('common.back')}
            </Button>
            <Button
              block
              size="large"
              color="danger"
              loading={close.isPending}
              disabled={close.isPending}
              onClick={confirmClose}
              data-testid="perp-close-confirm"
            >
              {t('perp.close.confirm')}
            </Button>
          </div>
        </section>
      </Popup>
      <TpslSheet
        isOpen={sheet === 'tpsl'}
        onClose={() => setSheet(null)}
        market={market}
        spec={spec}
        ticker={ticker}
        position={position}
      />
      <MarginSheet
        isOpen={sheet === 'margin'}
        onClose={() => setSheet(null)}
        market={market}
        spec={spec}
        ticker={ticker}
        account={account}
        position={position}
      />
    </article>
  );
}
