import { StatementList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** One user's latest ledger entries. */
export function listStatement(id: string, limit: number) {
  return api('GET', `/users/${id}/statement`, { limit }, StatementList);
}
