import type { PerpAccount, PerpMarket } from '@bourse/shared/api';
import { PERP_MAX_LEVERAGE } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../../shared/ui/toast.ts';
import { useSetLeverage } from '../api/set-leverage.ts';

/**
 * The account's leverage on this market and the sheet that changes it (1x up to the market's and
 * the platform's highest). Locked, with the reason beside it, while a position or an order exists.
 */
export function LeverageControl({
  market,
  account,
}: {
  market: PerpMarket;
  account: PerpAccount | undefined;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const hintId = useId();
  const [isOpen, setIsOpen] = useState(false);
  const [chosen, setChosen] = useState(account?.leverage ?? 1);
  const mutation = useSetLeverage();
  const highest = Math.min(market.max_leverage, PERP_MAX_LEVERAGE);
  const options = Array.from({ length: highest }, (_, index) => index + 1);
  const isLocked = account?.leverage_locked ?? false;

  function open() {
    setChosen(account?.leverage ?? 1);
    setIsOpen(true);
  }

  function confirm() {
    mutation.mutate(
      { symbol: market.symbol, leverage: chosen },
      {
        onSuccess: (body) => {
          showToast(body.msg, 'success');
          setIsOpen(false);
        },
      },
    );
  }

  return (
    <div className="perp-leverage">
      <span>
        {t('perp.leverage.label')}
        {isLocked && (
          <span className="perp-hint" id={hintId} data-testid="perp-leverage-locked">
            {t('perp.leverage.locked')}
          </span>
        )}
      </span>
      <button
        type="button"
        className="perp-leverage-button"
        onClick={open}
        disabled={!account || isLocked}
        aria-haspopup="dialog"
        aria-describedby={isLocked ? hintId : undefined}
        aria-label={t('perp.leverage.change', { leverage: account?.leverage ?? '—' })}
        data-testid="perp-leverage"
      >
        {account ? `${account.leverage}x` : '—'}
      </button>
      <Popup
        visible={isOpen}
        onMaskClick={mutation.isPending ? undefined : () => setIsOpen(false)}
        bodyClassName="perp-sheet-body"
      >
        <section className="perp-sheet" role="dialog" aria-modal="true" aria-labelledby={titleId}>
          <h2 className="perp-sheet-title" id={titleId}>
            {t('perp.leverage.title')}
          </h2>
          <fieldset className="perp-leverage-options">
            <legend className="visually-hidden">{t('perp.leverage.title')}</legend>
            {options.map((each) => (
              <button
                key={each}
                type="button"
                aria-pressed={chosen === each}
                className={chosen === each ? 'perp-option is-active' : 'perp-option'}
                onClick={() => setChosen(each)}
                data-testid={`perp-leverage-${each}`}
              >
                {each}x
              </button>
            ))}
          </fieldset>
          <p className="perp-sheet-text">{t('perp.leverage.explain', { leverage: chosen })}</p>
          <div className="perp-sheet-actions">
            <Button
              block
              size="large"
              fill="outline"
              onClick={() => setIsOpen(false)}
              disabled={mutation.isPending}
            >
              {t('common.back')}
            </Button>
            <Button
              block
              size="large"
              color="primary"
              loading={mutation.isPending}
              disabled={mutation.isPending || chosen === account?.leverage}
              onClick={confirm}
              data-testid="perp-leverage-confirm"
            >
              {t('perp.leverage.confirm', { leverage: chosen })}
            </Button>
          </div>
        </section>
      </Popup>
    </div>
  );
}
