import { BalanceList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** One user's balances. */
export function listBalances(id: string) {
  return api('GET', `/users/${id}/balances`, undefined, BalanceList);
}
