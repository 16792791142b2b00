import { UserAccount } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** One user's account. */
export function fetchUser(id: string) {
  return api('GET', `/users/${id}`, undefined, UserAccount);
}
