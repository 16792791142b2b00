import { useSchemaForm } from '@bourse/forms';
import type { PerpSpec } from '@bourse/perp';
import { priceBand } from '@bourse/perp';
import { truncateDecimal } from '@bourse/shared';
import type { PerpAccount, PerpMarket, PerpOrderType, PerpTicker, PerpTriggerRef } from '@bourse/shared/api';
import { PerpPlaceBody } from '@bourse/shared/api';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../../api/http.ts';
import { FormAmountField } from '../../../shared/form/form-fields.tsx';
import { newIdempotencyKey } from '../../../shared/idempotency-key.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { usePlacePerpOrder } from '../api/place-order.ts';
import { useRefLabel, useTypeLabel } from './labels.tsx';
import {
  atomsOf,
  hasLimitPrice,
  isOnGrid,
  isTriggerType,
  markTicks,
  plainDecimal,
  positionFigures,
  preTrade,
  priceTicks,
  triggerCondition,
} from './perp-math.ts';

type Side = 'buy' | 'sell';

/** The form's type tabs; stop and take-profit each choose market or limit. */
type TypeTab = 'limit' | 'market' | 'stop' | 'take_profit';
const TYPE_TABS: readonly TypeTab[] = ['limit', 'market', 'stop', 'take_profit'];
const TAB_KEYS: Record<TypeTab, string> = {
  limit: 'perp.type.limit',
  market: 'perp.type.market',
  stop: 'perp.type.stop',
  take_profit: 'perp.type.take_profit',
};
const REFS: readonly PerpTriggerRef[] = ['last', 'mark'];

function orderType(tab: TypeTab, isLimitChild: boolean): PerpOrderType {
  if (tab === 'stop') return isLimitChild ? 'stop_limit' : 'stop_market';
  if (tab === 'take_profit') return isLimitChild ? 'take_profit_limit' : 'take_profit_market';
  return tab;
}

const FormValues = z.object({ price: z.string(), qty: z.string(), trigger_price: z.string() });
type FormValues = z.input<typeof FormValues>;

interface Context {
  spec: PerpSpec;
  side: Side;
  type: PerpOrderType;
  ticker: PerpTicker | undefined;
  account: PerpAccount | undefined;
  triggerRef: PerpTriggerRef;
  isReduceOnly: boolean;
}

/**
 * The fields each order type sends, checked as the server checks them (the request schema), then
 * on the market's tick and lot, the band around the mark (limit), a trigger not already reached on
 * its reference, reduce-only against the position, and the hold against the available USDT.
 */
function orderFormSchema({ spec, side, type, ticker, account, triggerRef, isReduceOnly }: Context) {
  const shape = PerpPlaceBody.shape;
  return FormValues.superRefine((values, context) => {
    const fail = (path: keyof FormValues, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (isTriggerType(type)) {
      const reference = triggerRef === 'mark' ? ticker?.mark : ticker?.last;
      if (!shape.trigger_price.unwrap().safeParse(values.trigger_price).success)
        fail('trigger_price', 'TRIGGER_PRICE_INVALID');
      else if (!isOnGrid(values.trigger_price, spec.tickAtoms)) fail('trigger_price', 'perp.errors.tick');
      else if (reference) {
        const trigger = atomsOf(values.trigger_price);
        const now = atomsOf(reference);
        const condition = triggerCondition(type, side);
        if (condition === 'gte' ? now >= trigger : now <= trigger)
          fail('trigger_price', 'TRIGGER_WOULD_FIRE');
      }
    }
    if (hasLimitPrice(type)) {
      if (!shape.price.unwrap().safeParse(values.price).success) fail('price', 'perp.errors.price');
      else if (!isOnGrid(values.price, spec.tickAtoms)) fail('price', 'perp.errors.tick');
      else if (type === 'limit') {
        const mark = markTicks(spec, ticker?.mark);
        const ticks = priceTicks(spec, values.price);
        if (mark !== null && ticks !== null) {
          const band = priceBand(spec, mark);
          if (side === 'buy' ? ticks > band.maxBuy : ticks < band.minSell) fail('price', 'perp.errors.band');
        }
      }
    }
    if (!shape.qty.unwrap().safeParse(values.qty).success) return fail('qty', 'perp.errors.qty');
    if (!isOnGrid(values.qty, spec.lotAtoms)) return fail('qty', 'perp.errors.lot');
    const position = account?.position ? positionFigures(account.position) : null;
    if (isReduceOnly) {
      const held = position?.qty ?? 0n;
      const isOpposite = held !== 0n && held > 0n === (side === 'sell');
      if (!isOpposite) return fail('qty', 'perp.errors.reduceOnlyNoPosition');
      if (atomsOf(values.qty) > (held < 0n ? -held : held))
        return fail('qty', 'perp.errors.reduceOnlyTooLarge');
      return;
    }
    if (account) {
      const figures = preTrade({
        spec,
        side,
        type,
        price: values.price,
        qty: values.qty,
        triggerPrice: values.trigger_price,
        mark: ticker?.mark ?? null,
        leverage: account.leverage,
        position,
        isReduceOnly,
      });
      if (atomsOf(figures.hold) > atomsOf(account.available)) fail('qty', 'BALANCE_INSUFFICIENT');
    }
  });
}

/**
 * Long (buy) and short (sell); limit, market, stop and take-profit (each fired as a market or a
 * limit order) with the trigger price, what it watches (last or mark) and price protection;
 * reduce-only. Under the fields, before anything is sent: order value, initial margin, fee, the
 * hold (IM + taker fee), the estimated liquidation price and the available USDT.
 */
export function OrderForm({
  market,
  spec,
  ticker,
  account,
  isAccountPending,
  picked,
}: {
  market: PerpMarket;
  spec: PerpSpec;
  ticker: PerpTicker | undefined;
  account: PerpAccount | undefined;
  isAccountPending: boolean;
  /** A price tapped in the book; `at` changes on every tap, so the same price fills in again. */
  picked: { price: string; at: number } | null;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const typeLabel = useTypeLabel();
  const refLabel = useRefLabel();
  const [side, setSide] = useState<Side>('buy');
  const [tab, setTab] = useState<TypeTab>('limit');
  const [isLimitChild, setIsLimitChild] = useState(false);
  const [triggerRef, setTriggerRef] = useState<PerpTriggerRef>('last');
  const [isPriceProtected, setIsPriceProtected] = useState(false);
  const [isReduceOnly, setIsReduceOnly] = useState(false);
  const type = orderType(tab, isLimitChild);
  const isLimit = hasLimitPrice(type);
  const isTrigger = isTriggerType(type);
  const mutation = usePlaceOrderWithKey();
  const schema = useMemo(
    () => orderFormSchema({ spec, side, type, ticker, account, triggerRef, isReduceOnly }),
    [spec, side, type, ticker, account, triggerRef, isReduceOnly],
  );
  const form = useSchemaForm(schema, { defaultValues: { price: '', qty: '', trigger_price: '' } });
  const [price = '', qty = '', triggerPrice = ''] = useWatch({
    control: form.control,
    name: ['price', 'qty', 'trigger_price'],
  });
  const position = account?.position ? positionFigures(account.position) : null;
  const leverage = account?.leverage ?? 1;
  const figures = preTrade({
    spec,
    side,
    type,
    price,
    qty,
    triggerPrice,
    mark: ticker?.mark ?? null,
    leverage,
    position,
    isReduceOnly,
  });
  const isHalted = market.status !== 'open';
  const isFrozen = ticker?.frozen === true;
  const isBlocked = isHalted || (isFrozen && !isReduceOnly);
  const { clearErrors, getValues, setValue } = form;
  const markPrice = ticker?.mark ?? null;
  // why: a new limit order starts at the mark, once it is known (as the spot form starts at the
  // last price); only once, so a field the user cleared stays clear while the mark ticks.
  const hasStartPrice = useRef(false);
  useEffect(() => {
    if (!markPrice || hasStartPrice.current) return;
    hasStartPrice.current = true;
    if (getValues('price') === '')
      setValue('price', plainDecimal(truncateDecimal(markPrice, market.price_decimals)));
  }, [markPrice, market.price_decimals, getValues, setValue]);

  useEffect(() => {
    if (!picked) return;
    // why: a limit-priced trigger keeps its kind and takes the tapped price as its limit price.
    if (!hasLimitPrice(orderType(tab, isLimitChild))) setTab('limit');
    setValue('price', plainDecimal(truncateDecimal(picked.price, market.price_decimals)), {
      shouldValidate: true,
    });
  }, [picked, market.price_decimals, setValue]);

  function choose(next: { side?: Side; tab?: TypeTab; isLimitChild?: boolean }) {
    if (next.side) setSide(next.side);
    if (next.tab) setTab(next.tab);
    if (next.isLimitChild !== undefined) setIsLimitChild(next.isLimitChild);
    clearErrors();
  }

  const onSubmit = form.handleSubmit((values) => {
    if (mutation.isPending || isBlocked) return;
    mutation.place(
      {
        symbol: market.symbol,
        side,
        type,
        price: isLimit ? values.price : undefined,
        qty: values.qty,
        trigger_price: isTrigger ? values.trigger_price : undefined,
        trigger_ref: isTrigger ? triggerRef : undefined,
        price_protect: isTrigger ? isPriceProtected : undefined,
        reduce_only: isReduceOnly,
      },
      () => {
        form.reset({ price: getValues('price'), qty: '', trigger_price: getValues('trigger_price') });
      },
    );
  });

  return (
    <form className="perp-form" onSubmit={onSubmit} noValidate aria-labelledby={`${formId}-title`}>
      <h2 className="visually-hidden" id={`${formId}-title`}>
        {t('perp.form.title')}
      </h2>
      <div className="perp-switch" role="tablist" aria-label={t('perp.form.side')}>
        {(['buy', 'sell'] as const).map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            aria-selected={side === each}
            className={side === each ? `perp-option is-${each} is-active` : `perp-option is-${each}`}
            onClick={() => choose({ side: each })}
            data-testid={`perp-side-${each}`}
          >
            {t(each === 'buy' ? 'perp.form.long' : 'perp.form.short')}
          </button>
        ))}
      </div>
      <fieldset className="perp-switch">
        <legend className="visually-hidden">{t('perp.form.type')}</legend>
        {TYPE_TABS.map((each) => (
          <button
            key={each}
            type="button"
            aria-pressed={tab === each}
            className={tab === each ? 'perp-option is-active' : 'perp-option'}
            onClick={() => choose({ tab: each })}
            data-testid={`perp-type-${each}`}
          >
            {t(TAB_KEYS[each])}
          </button>
        ))}
      </fieldset>
      {isTrigger && (
        <>
          <fieldset className="perp-switch">
            <legend className="visually-hidden">{t('perp.form.childType')}</legend>
            {[false, true].map((each) => {
              const childType = orderType(tab, each);
              return (
                <button
                  key={childType}
                  type="button"
                  aria-pressed={isLimitChild === each}
                  className={isLimitChild === each ? 'perp-option is-active' : 'perp-option'}
                  onClick={() => choose({ isLimitChild: each })}
                  data-testid={`perp-child-${childType}`}
                >
                  {typeLabel(childType)}
                </button>
              );
            })}
          </fieldset>
          <fieldset className="perp-switch">
            <legend className="perp-hint">{t('perp.form.triggerRef')}</legend>
            {REFS.map((each) => (
              <button
                key={each}
                type="button"
                aria-pressed={triggerRef === each}
                className={triggerRef === each ? 'perp-option is-active' : 'perp-option'}
                onClick={() => setTriggerRef(each)}
                data-testid={`perp-ref-${each}`}
              >
                {refLabel(each)}
              </button>
            ))}
          </fieldset>
          <FormAmountField
            control={form.control}
            name="trigger_price"
            label={t('perp.form.triggerPrice', { coin: market.quote })}
            decimals={market.price_decimals}
            testId="perp-trigger-price"
            hint={
              <TriggerHint
                market={market}
                reference={triggerRef === 'mark' ? (ticker?.mark ?? null) : (ticker?.last ?? null)}
                refName={refLabel(triggerRef)}
                condition={triggerCondition(type, side)}
              />
            }
          />
          <label className="perp-toggle">
            <span>
              {t('perp.form.priceProtect')}
              <span className="perp-hint">{t('perp.form.priceProtectHint')}</span>
            </span>
            <input
              type="checkbox"
              checked={isPriceProtected}
              onChange={(event) => setIsPriceProtected(event.target.checked)}
              data-testid="perp-price-protect"
            />
          </label>
        </>
      )}
      {isLimit ? (
        <FormAmountField
          control={form.control}
          name="price"
          label={t('perp.form.price', { coin: market.quote })}
          decimals={market.price_decimals}
          testId="perp-price"
        />
      ) : (
        <p className="perp-hint" data-testid="perp-market-price">
          {t('perp.form.marketPrice')}
        </p>
      )}
      <FormAmountField
        control={form.control}
        name="qty"
        label={t('perp.form.qty', { coin: market.base })}
        decimals={market.qty_decimals}
        testId="perp-qty"
      />
      <label className="perp-toggle">
        <span>
          {t('perp.form.reduceOnly')}
          <span className="perp-hint">{t('perp.form.reduceOnlyHint')}</span>
        </span>
        <input
          type="checkbox"
          checked={isReduceOnly}
          onChange={(event) => {
            setIsReduceOnly(event.target.checked);
            clearErrors('qty');
          }}
          data-testid="perp-reduce-only"
        />
      </label>
      <dl className="perp-figures" aria-live="polite">
        <div>
          <dt>{t('perp.figures.value')}</dt>
          <dd data-testid="perp-value">
            <Amount value={figures.value} decimals={2} unit={market.quote} />
          </dd>
        </div>
        <div>
          <dt>{t('perp.figures.initialMargin', { leverage })}</dt>
          <dd data-testid="perp-im">
            <Amount value={figures.initialMargin} decimals={8} unit={market.quote} />
          </dd>
        </div>
        <div>
          <dt>{t('perp.figures.fee')}</dt>
          <dd data-testid="perp-fee">
            <Amount value={figures.fee} decimals={8} unit={market.quote} />
          </dd>
        </div>
        <div>
          <dt>{t('perp.figures.hold')}</dt>
          <dd data-testid="perp-hold">
            <Amount value={figures.hold} decimals={8} unit={market.quote} />
          </dd>
        </div>
        <div>
          <dt>{t('perp.figures.liquidation')}</dt>
          <dd data-testid="perp-est-liq">
            {figures.liquidationPrice ? (
              <Amount value={figures.liquidationPrice} decimals={market.price_decimals} />
            ) : (
              '—'
            )}
          </dd>
        </div>
        <div>
          <dt>{t('perp.figures.available')}</dt>
          <dd data-testid="perp-available">
            {isAccountPending ? (
              '…'
            ) : (
              <Amount value={account?.available ?? '0'} decimals={8} unit={market.quote} />
            )}
          </dd>
        </div>
      </dl>
      {!isLimit && <p className="perp-hint">{t('perp.figures.bandNote')}</p>}
      {isHalted && (
        <p className="perp-note" role="status" data-testid="perp-halted">
          {t('perp.halted')}
        </p>
      )}
      {isFrozen && (
        <p className="perp-note" role="status" data-testid="perp-frozen">
          {t('perp.frozen')}
        </p>
      )}
      <SubmitButton
        isBusy={mutation.isPending}
        isDisabled={isBlocked}
        testId="perp-submit"
        className={`perp-submit is-${side}`}
      >
        {t(side === 'buy' ? 'perp.form.submitLong' : 'perp.form.submitShort', { coin: market.base })}
      </SubmitButton>
    </form>
  );
}

/** Place with one idempotency key per submission, kept for a retry after a network failure. */
function usePlaceOrderWithKey() {
  const mutation = usePlacePerpOrder();
  const key = useRef(newIdempotencyKey());
  return {
    isPending: mutation.isPending,
    place(input: Omit<Parameters<typeof mutation.mutate>[0], 'idempotency_key'>, onPlaced: () => void) {
      mutation.mutate(
        { ...input, idempotency_key: key.current },
        {
          onSuccess: (body) => {
            key.current = newIdempotencyKey();
            showToast(body.msg, 'success');
            onPlaced();
          },
          onError: (error) => {
            // why: a refused order took no effect, so the next try is a new submission; after a
            // network failure the outcome is unknown, and the same key makes a retry safe.
            if (!(error instanceof ApiError && error.code === -1)) key.current = newIdempotencyKey();
          },
        },
      );
    },
  };
}

/** Under the trigger price: the reference it watches now, and the direction it waits for. */
function TriggerHint({
  market,
  reference,
  refName,
  condition,
}: {
  market: PerpMarket;
  reference: string | null;
  refName: string;
  condition: 'gte' | 'lte';
}) {
  const { t } = useTranslation();
  return (
    <span className="perp-hint">
      <span data-testid="perp-trigger-reference">
        {refName} {reference ? <Amount value={reference} decimals={market.price_decimals} /> : '—'}
      </span>{' '}
      <span data-condition={condition}>
        {t(condition === 'gte' ? 'perp.trigger.whenRises' : 'perp.trigger.whenFalls', { ref: refName })}
      </span>
    </span>
  );
}
