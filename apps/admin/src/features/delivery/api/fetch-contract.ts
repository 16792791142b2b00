import { AdminContractRecord } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** One contract with everything its settlement used. */
export function fetchContract(id: string) {
  return api('GET', `/delivery/contracts/${encodeURIComponent(id)}`, undefined, AdminContractRecord);
}
