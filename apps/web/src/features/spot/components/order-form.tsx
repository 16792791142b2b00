import { ATOMS_PER_UNIT, truncateDecimal } from '@bourse/shared';
import type { OrderSide, SpotMarket, SpotOrderType } from '@bourse/shared/api';
import { PlaceOrderBody } from '@bourse/shared/api';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '../../../api/http.ts';
import { FormAmountField } from '../../../shared/form/form-fields.tsx';
import { useSchemaForm } from '../../../shared/form/use-schema-form.ts';
import { newIdempotencyKey } from '../../../shared/idempotency-key.ts';
import { Amount } from '../../../shared/ui/amount.tsx';
import { SubmitButton } from '../../../shared/ui/submit-button.tsx';
import { showToast } from '../../../shared/ui/toast.ts';
import { useBalance } from '../api/get-balance.ts';
import { usePlaceOrder } from '../api/orders.ts';
import {
  amountAtoms,
  decimalAtoms,
  estimateOrder,
  feePercent,
  highestFee,
  isOnStep,
  plainDecimal,
  sliderAmount,
  stepDecimals,
} from './order-math.ts';
import { PercentSlider } from './percent-slider.tsx';

interface Context {
  market: SpotMarket;
  side: OrderSide;
  type: SpotOrderType;
  /** Available balance: quote coin for buys, base coin for sells. */
  available: string;
}

const FormValues = z.object({ price: z.string(), qty: z.string(), quote_amount: z.string() });

/**
 * The form over the shared request schema's fields (`PlaceOrderBody`): each field the order type
 * sends is checked as the server checks it, then on the market's tick and lot size, its minimum
 * total and the balance available.
 */
function orderFormSchema({ market, side, type, available }: Context) {
  const shape = PlaceOrderBody.shape;
  return FormValues.superRefine((values, context) => {
    const fail = (path: 'price' | 'qty' | 'quote_amount', message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    const funds = decimalAtoms(available);
    if (side === 'buy' && type === 'market') {
      if (!shape.quote_amount.unwrap().safeParse(values.quote_amount).success)
        return fail('quote_amount', 'spot.errors.amount');
      const amount = amountAtoms(values.quote_amount);
      if (amount < decimalAtoms(market.min_notional)) return fail('quote_amount', 'spot.errors.minTotal');
      if (amount > funds) fail('quote_amount', 'BALANCE_INSUFFICIENT');
      return;
    }
    if (type === 'limit') {
      if (!shape.price.unwrap().safeParse(values.price).success) fail('price', 'spot.errors.price');
      else if (!isOnStep(values.price, market.tick_size)) fail('price', 'spot.errors.tick');
    }
    if (!shape.qty.unwrap().safeParse(values.qty).success) return fail('qty', 'spot.errors.qty');
    if (!isOnStep(values.qty, market.lot_size)) return fail('qty', 'spot.errors.lot');
    if (type === 'limit' && amountAtoms(values.price) > 0n) {
      const total = (amountAtoms(values.price) * amountAtoms(values.qty)) / ATOMS_PER_UNIT;
      if (total < decimalAtoms(market.min_notional)) return fail('qty', 'spot.errors.minTotal');
      if (side === 'buy') {
        const fee = decimalAtoms(highestFee(market.maker_fee, market.taker_fee));
        const held = total + (total * fee) / ATOMS_PER_UNIT;
        if (held > funds) return fail('qty', 'BALANCE_INSUFFICIENT');
      }
    }
    if (side === 'sell' && amountAtoms(values.qty) > funds) fail('qty', 'BALANCE_INSUFFICIENT');
  });
}

const SIDES: readonly OrderSide[] = ['buy', 'sell'];
const TYPES: readonly SpotOrderType[] = ['limit', 'market'];

/**
 * Buy and sell, limit and market: the price (limit), the quantity or (market buy) the amount to
 * spend, a slider for a share of what is available, and before anything is sent the total and
 * the most fee it can cost. A price tapped in the book arrives through `picked`.
 */
export function OrderForm({
  market,
  picked,
  referencePrice,
  bestAsk,
  bestBid,
}: {
  market: SpotMarket;
  /** A price tapped in the book; `at` changes on every tap, so the same price fills in again. */
  picked: { price: string; at: number } | null;
  /** The price a new limit order starts at (the last trade, else the index). */
  referencePrice: string | null;
  bestAsk: string | null;
  bestBid: string | null;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const [side, setSide] = useState<OrderSide>('buy');
  const [type, setType] = useState<SpotOrderType>('limit');
  const [percent, setPercent] = useState(0);
  const payCoin = side === 'buy' ? market.quote : market.base;
  const balance = useBalance(payCoin, true);
  const available = balance.data?.available ?? '0';
  const mutation = usePlaceOrder();
  const idempotencyKey = useRef(newIdempotencyKey());
  const schema = useMemo(
    () => orderFormSchema({ market, side, type, available }),
    [market, side, type, available],
  );
  const priceDecimals = stepDecimals(market.tick_size);
  const qtyDecimals = stepDecimals(market.lot_size);
  const form = useSchemaForm(schema, { defaultValues: { price: '', qty: '', quote_amount: '' } });
  const [price = '', qty = '', quoteAmount = ''] = useWatch({
    control: form.control,
    name: ['price', 'qty', 'quote_amount'],
  });
  const isMarketBuy = side === 'buy' && type === 'market';
  const feeRatio = type === 'limit' ? highestFee(market.maker_fee, market.taker_fee) : market.taker_fee;
  const estimate = estimateOrder({
    side,
    type,
    price,
    qty,
    quoteAmount,
    referencePrice: side === 'buy' ? bestAsk : bestBid,
    feeRatio,
  });
  const isHalted = market.status !== 'open';

  const { setValue, getValues, clearErrors } = form;
  // why: a new limit order starts at the market's price, once it is known.
  useEffect(() => {
    if (referencePrice && getValues('price') === '')
      setValue('price', plainDecimal(truncateDecimal(referencePrice, priceDecimals)));
  }, [referencePrice, priceDecimals, getValues, setValue]);

  useEffect(() => {
    if (!picked) return;
    setType('limit');
    setValue('price', plainDecimal(truncateDecimal(picked.price, priceDecimals)), { shouldValidate: true });
  }, [picked, priceDecimals, setValue]);

  function applyPercent(next: number) {
    setPercent(next);
    const fill = sliderAmount({
      percent: next,
      side,
      type,
      available,
      price: getValues('price'),
      lotSize: market.lot_size,
      feeRatio: highestFee(market.maker_fee, market.taker_fee),
    });
    setValue(fill.field, fill.value, { shouldValidate: fill.value !== '', shouldTouch: true });
  }

  function choose(next: { side?: OrderSide; type?: SpotOrderType }) {
    if (next.side) setSide(next.side);
    if (next.type) setType(next.type);
    setPercent(0);
    setValue('qty', '');
    setValue('quote_amount', '');
    clearErrors();
  }

  const onSubmit = form.handleSubmit((values) => {
    if (mutation.isPending || isHalted) return;
    mutation.mutate(
      {
        symbol: market.symbol,
        side,
        type,
        price: type === 'limit' ? values.price : undefined,
        qty: isMarketBuy ? undefined : values.qty,
        quoteAmount: isMarketBuy ? values.quote_amount : undefined,
        idempotencyKey: idempotencyKey.current,
      },
      {
        onSuccess: (body) => {
          idempotencyKey.current = newIdempotencyKey();
          showToast(body.msg, 'success');
          setPercent(0);
          form.reset({ price: getValues('price'), qty: '', quote_amount: '' });
        },
        onError: (error) => {
          // why: a refused order took no effect, so the next try is a new submission; after a
          // network failure the outcome is unknown, and the same key makes a retry safe.
          if (!(error instanceof ApiError && error.code === -1)) idempotencyKey.current = newIdempotencyKey();
        },
      },
    );
  });

  return (
    <form className="order-form" onSubmit={onSubmit} noValidate aria-labelledby={`${formId}-title`}>
      <h2 className="visually-hidden" id={`${formId}-title`}>
        {t('spot.form.title')}
      </h2>
      <div className="side-switch" role="tablist" aria-label={t('spot.form.side')}>
        {SIDES.map((each) => (
          <button
            key={each}
            type="button"
            role="tab"
            aria-selected={side === each}
            className={side === each ? `side-option is-${each} is-active` : `side-option is-${each}`}
            onClick={() => choose({ side: each })}
            data-testid={`side-${each}`}
          >
            {t(`spot.side.${each}`)}
          </button>
        ))}
      </div>
      <fieldset className="type-switch">
        <legend className="visually-hidden">{t('spot.form.type')}</legend>
        {TYPES.map((each) => (
          <button
            key={each}
            type="button"
            aria-pressed={type === each}
            className={type === each ? 'type-option is-active' : 'type-option'}
            onClick={() => choose({ type: each })}
            data-testid={`type-${each}`}
          >
            {t(`spot.type.${each}`)}
          </button>
        ))}
      </fieldset>
      {type === 'limit' ? (
        <FormAmountField
          control={form.control}
          name="price"
          label={t('spot.form.price', { coin: market.quote })}
          decimals={priceDecimals}
          testId="order-price"
        />
      ) : (
        <div className="field">
          <span className="field-label">{t('spot.form.price', { coin: market.quote })}</span>
          <p className="market-price-note" data-testid="order-market-price">
            {t('spot.form.marketPrice')}
          </p>
        </div>
      )}
      {isMarketBuy ? (
        <FormAmountField
          control={form.control}
          name="quote_amount"
          label={t('spot.form.amount', { coin: market.quote })}
          decimals={8}
          testId="order-amount"
        />
      ) : (
        <FormAmountField
          control={form.control}
          name="qty"
          label={t('spot.form.qty', { coin: market.base })}
          decimals={qtyDecimals}
          testId="order-qty"
        />
      )}
      <PercentSlider
        value={percent}
        onChange={applyPercent}
        isDisabled={isHalted || decimalAtoms(available) === 0n}
      />
      <dl className="order-figures">
        <div>
          <dt>{t('spot.form.available')}</dt>
          <dd data-testid="order-available">
            {balance.isPending ? '…' : <Amount value={available} decimals={8} unit={payCoin} />}
          </dd>
        </div>
        <div>
          <dt>{type === 'market' && !isMarketBuy ? t('spot.form.totalAbout') : t('spot.form.total')}</dt>
          <dd data-testid="order-total">
            <Amount value={estimate.total} decimals={8} unit={market.quote} />
          </dd>
        </div>
        {isMarketBuy && (
          <div>
            <dt>{t('spot.form.qtyAbout')}</dt>
            <dd data-testid="order-qty-estimate">
              <Amount value={estimate.qty} decimals={market.qty_decimals} unit={market.base} />
            </dd>
          </div>
        )}
        <div>
          <dt>{t('spot.form.fee', { ratio: feePercent(feeRatio) })}</dt>
          <dd data-testid="order-fee">
            <Amount value={estimate.fee} decimals={8} unit={side === 'buy' ? market.base : market.quote} />
          </dd>
        </div>
      </dl>
      {isHalted && (
        <p className="note" role="status" data-testid="order-halted">
          {t('spot.halted')}
        </p>
      )}
      <SubmitButton
        isBusy={mutation.isPending}
        isDisabled={isHalted}
        testId="order-submit"
        className={`order-submit is-${side}`}
      >
        {t(side === 'buy' ? 'spot.form.submitBuy' : 'spot.form.submitSell', { coin: market.base })}
      </SubmitButton>
    </form>
  );
}
