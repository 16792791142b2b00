import { useSchemaForm } from '@bourse/forms';
import type { PerpSpec } from '@bourse/perp';
import type { PerpAccount, PerpMarket, PerpPosition, PerpTicker } from '@bourse/shared/api';
import { PerpMarginBody } from '@bourse/shared/api';
import Button from 'antd-mobile/es/components/button';
import Popup from 'antd-mobile/es/components/popup';
import { useId, useMemo, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormAmountField } from '../../../shared/form/form-fields.tsx';
import { Amount } from '../../../shared/ui/amount.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useChangeMargin } from '../api/change-margin.ts';
import { atomsOf, decimalOf, maxRemovableMargin } from './perp-math.ts';
import { useSubmissionKey } from './submission-key.ts';

type Direction = 'add' | 'remove';
const MarginValues = z.object({ amount: z.string() });

/** The amount as the server reads it, then within what may move: available to add, the rule's room to remove. */
function marginSchema(direction: Direction, limit: bigint) {
  const amountField = PerpMarginBody.shape.amount;
  return MarginValues.superRefine((values, context) => {
    const fail = (message: string) => context.addIssue({ code: 'custom', path: ['amount'], message });
    if (!amountField.safeParse(values.amount).success || atomsOf(values.amount) <= 0n)
      return fail('AMOUNT_INVALID');
    if (atomsOf(values.amount) > limit)
      fail(direction === 'add' ? 'BALANCE_INSUFFICIENT' : 'MARGIN_REMOVAL_DENIED');
  });
}

/** Adds USDT from available to the position's margin, or takes some back while the rule allows it. */
export function MarginSheet({
  isOpen,
  onClose,
  market,
  spec,
  ticker,
  account,
  position,
}: {
  isOpen: boolean;
  onClose: () => void;
  market: PerpMarket;
  spec: PerpSpec;
  ticker: PerpTicker | undefined;
  account: PerpAccount;
  position: PerpPosition;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [direction, setDirection] = useState<Direction>('add');
  const limit =
    direction === 'add'
      ? atomsOf(account.available)
      : maxRemovableMargin(spec, position, ticker?.mark ?? null);
  const schema = useMemo(() => marginSchema(direction, limit), [direction, limit]);
  const form = useSchemaForm(schema, { defaultValues: { amount: '' } });
  const amount = useWatch({ control: form.control, name: 'amount' }) ?? '';
  const mutation = useChangeMargin();
  const key = useSubmissionKey();
  const current = atomsOf(position.margin);
  const change = atomsOf(amount);
  const after = direction === 'add' ? current + change : current - change;

  function choose(next: Direction) {
    setDirection(next);
    form.reset({ amount: '' });
  }

  const onSubmit = form.handleSubmit((values) => {
    if (mutation.isPending) return;
    mutation.mutate(
      { symbol: market.symbol, direction, amount: values.amount, idempotency_key: key.current() },
      {
        onError: (error) => key.settle(error),
        onSuccess: (body) => {
          key.settle();
          showToast(body.msg, 'success');
          form.reset({ amount: '' });
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
          {t('perp.margin.title')}
        </h2>
        <div className="perp-switch" role="tablist" aria-label={t('perp.margin.title')}>
          {(['add', 'remove'] as const).map((each) => (
            <button
              key={each}
              type="button"
              role="tab"
              aria-selected={direction === each}
              className={direction === each ? 'perp-option is-active' : 'perp-option'}
              onClick={() => choose(each)}
              data-testid={`perp-margin-${each}`}
            >
              {t(each === 'add' ? 'perp.margin.add' : 'perp.margin.remove')}
            </button>
          ))}
        </div>
        <FormAmountField
          control={form.control}
          name="amount"
          label={t('perp.margin.amount', { coin: market.quote })}
          decimals={8}
          testId="perp-margin-amount"
          hint={
            <span>
              {t(direction === 'add' ? 'perp.margin.maxAdd' : 'perp.margin.maxRemove')}{' '}
              <Amount value={decimalOf(limit)} decimals={8} unit={market.quote} />
            </span>
          }
        />
        <dl className="perp-figures">
          <div>
            <dt>{t('perp.margin.current')}</dt>
            <dd>
              <Amount value={position.margin} decimals={8} unit={market.quote} />
            </dd>
          </div>
          <div>
            <dt>{t('perp.margin.after')}</dt>
            <dd data-testid="perp-margin-after">
              <Amount value={decimalOf(after > 0n ? after : 0n)} decimals={8} unit={market.quote} />
            </dd>
          </div>
        </dl>
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
            data-testid="perp-margin-submit"
          >
            {t(direction === 'add' ? 'perp.margin.confirmAdd' : 'perp.margin.confirmRemove')}
          </Button>
        </div>
      </form>
    </Popup>
  );
}
