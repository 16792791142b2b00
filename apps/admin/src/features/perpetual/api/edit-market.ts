import { AdminPerpMarket, type EditPerpMarketBody } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/**
 * Changes a market's fees, band or status (only the fields given), with the reason the server
 * writes into the audit record. Answers the market as it now is.
 */
export function editMarket(symbol: string, values: EditPerpMarketBody) {
  return api('POST', `/perp/markets/${encodeURIComponent(symbol)}`, { ...values }, AdminPerpMarket);
}
