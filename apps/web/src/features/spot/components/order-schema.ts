import { ATOMS_PER_UNIT } from '@bourse/shared';
import type { OrderSide, SpotMarket, SpotOrderType } from '@bourse/shared/api';
import { PlaceOrderBody } from '@bourse/shared/api';
import { z } from 'zod';
import {
  amountAtoms,
  decimalAtoms,
  hasLimitPrice,
  highestFee,
  isOnStep,
  isTriggerReached,
  isTriggerType,
  triggerCondition,
} from './order-math.ts';

/**
 * The order form's validation, in a module of its own: it needs zod and the request schema
 * (`PlaceOrderBody`), which the form loads only when it first validates, so the trade page's
 * first render does not wait for them (see `deferredOrderSchema` in order-form.tsx).
 */

export interface OrderFormContext {
  market: SpotMarket;
  side: OrderSide;
  type: SpotOrderType;
  /** Available balance: quote coin for buys, base coin for sells. */
  available: string;
  /** The market's last trade price, which a trigger must not have reached yet; null before a trade. */
  lastPrice: string | null;
}

const FormValues = z.object({
  price: z.string(),
  qty: z.string(),
  quote_amount: z.string(),
  trigger_price: z.string(),
});
export type OrderFormValues = z.input<typeof FormValues>;

/**
 * The form over the shared request schema's fields (`PlaceOrderBody`): each field the order type
 * sends is checked as the server checks it, then on the market's tick and lot size, its minimum
 * total and the balance available; a trigger price also on not being reached already.
 */
export function orderFormSchema({ market, side, type, available, lastPrice }: OrderFormContext) {
  const shape = PlaceOrderBody.shape;
  const isLimit = hasLimitPrice(type);
  return FormValues.superRefine((values, context) => {
    const fail = (path: keyof OrderFormValues, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    const funds = decimalAtoms(available);
    if (isTriggerType(type)) {
      if (!shape.trigger_price.unwrap().safeParse(values.trigger_price).success)
        fail('trigger_price', 'TRIGGER_PRICE_INVALID');
      else if (!isOnStep(values.trigger_price, market.tick_size)) fail('trigger_price', 'spot.errors.tick');
      else if (isTriggerReached(triggerCondition(type, side), lastPrice, values.trigger_price))
        fail('trigger_price', 'TRIGGER_WOULD_FIRE');
    }
    if (side === 'buy' && !isLimit) {
      if (!shape.quote_amount.unwrap().safeParse(values.quote_amount).success)
        return fail('quote_amount', 'spot.errors.amount');
      const amount = amountAtoms(values.quote_amount);
      if (amount < decimalAtoms(market.min_notional)) return fail('quote_amount', 'spot.errors.minTotal');
      if (amount > funds) fail('quote_amount', 'BALANCE_INSUFFICIENT');
      return;
    }
    if (isLimit) {
      if (!shape.price.unwrap().safeParse(values.price).success) fail('price', 'spot.errors.price');
      else if (!isOnStep(values.price, market.tick_size)) fail('price', 'spot.errors.tick');
    }
    if (!shape.qty.unwrap().safeParse(values.qty).success) return fail('qty', 'spot.errors.qty');
    if (!isOnStep(values.qty, market.lot_size)) return fail('qty', 'spot.errors.lot');
    if (isLimit && amountAtoms(values.price) > 0n) {
      const total = (amountAtoms(values.price) * amountAtoms(values.qty)) / ATOMS_PER_UNIT;
      if (total < decimalAtoms(market.min_notional)) return fail('qty', 'spot.errors.minTotal');
      if (side === 'buy') {
        const fee = decimalAtoms(highestFee(market.maker_fee, market.taker_fee));
        const held = total + (total * fee) / ATOMS_PER_UNIT;
        if (held > funds) return fail('qty', 'BALANCE_INSUFFICIENT');
      }
    }
    // why: a stop-market or take-profit sell is sized at its trigger price, as the server checks it.
    if (!isLimit && isTriggerType(type) && amountAtoms(values.trigger_price) > 0n) {
      const total = (amountAtoms(values.trigger_price) * amountAtoms(values.qty)) / ATOMS_PER_UNIT;
      if (total < decimalAtoms(market.min_notional)) return fail('qty', 'spot.errors.minTotal');
    }
    if (side === 'sell' && amountAtoms(values.qty) > funds) fail('qty', 'BALANCE_INSUFFICIENT');
  });
}

/** The schema's type, for the form's values. */
export type OrderFormSchema = ReturnType<typeof orderFormSchema>;
