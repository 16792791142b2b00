import { AdminPerpMarket, type FundInsuranceBody } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/**
 * Moves USDT from the platform treasury into a market's insurance fund, with a reason for the
 * audit record. Answers the market with its new fund balance.
 */
export function fundInsurance(symbol: string, values: FundInsuranceBody) {
  return api('POST', `/perp/markets/${encodeURIComponent(symbol)}/insurance`, { ...values }, AdminPerpMarket);
}
