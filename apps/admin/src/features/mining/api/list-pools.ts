import { AdminPoolList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The payout pools per coin and what they owe. */
export function listPools() {
  return api('GET', '/mining/pools', undefined, AdminPoolList);
}
