import { LoginLogList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** One user's latest sign-ins. */
export function listLogins(id: string) {
  return api('GET', `/users/${id}/logins`, undefined, LoginLogList);
}
