import { useSchemaForm } from '@bourse/forms';
import type { PerpSpec } from '@bourse/perp';
import type { PerpMarket, PerpPosition, PerpTicker, PerpTriggerRef } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormAmountField } from '../../../shared/form/form-fields.tsx';
import { Amount } from '../../../shared/ui/amount.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useSetTpsl } from '../api/set-tpsl.ts';
import { useRefLabel } from './labels.tsx';
import { atomsOf, isOnGrid } from './perp-math.ts';

const TpslValues = z.object({ stop_loss: z.string(), take_profit: z.string() });
type TpslValues = z.input<typeof TpslValues>;
const REFS: readonly PerpTriggerRef[] = ['last', 'mark'];

/**
 * A long's stop-loss lies below the reference and its take-profit above it; a short's the other way.
 * At least one is asked for; each on the tick.
 */
function tpslSchema(spec: PerpSpec, side: PerpPosition['side'], reference: string | null) {
  return TpslValues.superRefine((values, context) => {
    const fail = (path: keyof TpslValues, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (values.stop_loss === '' && values.take_profit === '')
      return fail('stop_loss', 'perp.errors.tpslEmpty');
    const now = atomsOf(reference);
    for (const [name, isBelowForLong] of [
      ['stop_loss', true],
      ['take_profit', false],
    ] as const) {
      const text = values[name];
      if (text === '') continue;
      if (!isOnGrid(text, spec.tickAtoms)) {
        fail(name, atomsOf(text) > 0n ? 'perp.errors.tick' : 'TRIGGER_PRICE_INVALID');
        continue;
      }
      if (now === 0n) continue;
      const mustBeBelow = isBelowForLong === (side === 'long');
      const price = atomsOf(text);
      if (mustBeBelow ? price >= now : price <= now)
        fail(name, mustBeBelow ? 'perp.errors.triggerBelow' : 'perp.errors.triggerAbove');
    }
  });
}

/** The position's stop-loss / take-profit pair: both fire as a market close, one cancels the other. */
export function TpslSheet({
  isOpen,
  onClose,
  market,
  spec,
  ticker,
  position,
}: {
  isOpen: boolean;
  onClose: () => void;
  market: PerpMarket;
  spec: PerpSpec;
  ticker: PerpTicker | undefined;
  position: PerpPosition;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const refLabel = useRefLabel();
  const [triggerRef, setTriggerRef] = useState<PerpTriggerRef>('mark');
  const reference = (triggerRef === 'mark' ? ticker?.mark : ticker?.last) ?? null;
  const schema = useMemo(() => tpslSchema(spec, position.side, reference), [spec, position.side, reference]);
  const form = useSchemaForm(schema, {
    defaultValues: { stop_loss: position.stop_loss ?? '', take_profit: position.take_profit ?? '' },
  });
  const mutation = useSetTpsl();

  const onSubmit = form.handleSubmit((values) => {
    if (mutation.isPending) return;
    mutation.mutate(
      {
        symbol: market.symbol,
        stop_loss: values.stop_loss || undefined,
        take_profit: values.take_profit || undefined,
        trigger_ref: triggerRef,
      },
      {
        onSuccess: (body) => {
          showToast(body.msg, 'success');
          onClose();
        },
      },
    );
  });

  return (
    <Popup
      visible={isOpen}
      onMaskClick={mutation.isPending ? undefined : onClose}
      bodyClassName="perp-sheet-body"
    >
      <form
        className="perp-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onSubmit={onSubmit}
        noValidate
      >
        <h2 className="perp-sheet-title" id={titleId}>
          {t('perp.tpsl.title')}
        </h2>
        <p className="perp-sheet-text">{t('perp.tpsl.explain')}</p>
        <fieldset className="perp-switch">
          <legend className="perp-hint">{t('perp.form.triggerRef')}</legend>
          {REFS.map((each) => (
            <button
              key={each}
              type="button"
              aria-pressed={triggerRef === each}
              className={triggerRef === each ? 'perp-option is-active' : 'perp-option'}
              onClick={() => setTriggerRef(each)}
              data-testid={`perp-tpsl-ref-${each}`}
            >
              {refLabel(each)}
            </button>
          ))}
        </fieldset>
        <p className="perp-hint">
          {refLabel(triggerRef)}{' '}
          {reference ? <Amount value={reference} decimals={market.price_decimals} /> : '—'}
        </p>
        <FormAmountField
          control={form.control}
          name="stop_loss"
          label={t('perp.tpsl.stopLoss', { coin: market.quote })}
          decimals={market.price_decimals}
          testId="perp-tpsl-sl"
        />
        <FormAmountField
          control={form.control}
          name="take_profit"
          label={t('perp.tpsl.takeProfit', { coin: market.quote })}
          decimals={market.price_decimals}
          testId="perp-tpsl-tp"
        />
        <div className="perp-sheet-actions">
          <Button block size="large" fill="outline" onClick={onClose} disabled={mutation.isPending}>
            {t('common.back')}
          </Button>
          <Button
            block
            size="large"
            color="primary"
            type="submit"
            loading={mutation.isPending}
            disabled={mutation.isPending}
            data-testid="perp-tpsl-submit"
          >
            {t('perp.tpsl.confirm')}
          </Button>
        </div>
      </form>
    </Popup>
  );
}
