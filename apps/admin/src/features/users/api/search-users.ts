import { UserSummaryList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Users whose id, name, email or phone match `q` (the newest without it). */
export function searchUsers(q: string) {
  return api('GET', '/users', { q }, UserSummaryList);
}
