import { isAmountString, toAtoms } from '@bourse/shared';
import { ConvertBody, type ConvertCoin } from '@bourse/shared/api';

/**
 * The conversion form over the shared request schema, bounded by the balance of the coin given.
 * A module of its own: the form loads it (with zod) on first use, not with the page.
 */
export function convertFormSchema(coins: readonly ConvertCoin[]) {
  return ConvertBody.pick({ from: true, to: true, amount: true }).superRefine((values, context) => {
    if (values.from && values.from === values.to)
      context.addIssue({ code: 'custom', path: ['to'], message: 'CONVERT_SAME_COIN' });
    const from = coins.find((coin) => coin.coin === values.from);
    if (from && isAmountString(values.amount) && toAtoms(values.amount) > toAtoms(from.available))
      context.addIssue({ code: 'custom', path: ['amount'], message: 'BALANCE_INSUFFICIENT' });
  });
}
