import { type AdminContractFilter, AdminContractList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A page of contracts, filtered. */
export function listContracts(filter: Omit<AdminContractFilter, 'token'>) {
  return api('GET', '/delivery/contracts', { ...filter }, AdminContractList);
}
