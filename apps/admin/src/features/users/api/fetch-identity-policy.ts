import { IdentityPolicy } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** What identity verification asks of users. */
export function fetchIdentityPolicy() {
  return api('GET', '/identity-policy', undefined, IdentityPolicy);
}
