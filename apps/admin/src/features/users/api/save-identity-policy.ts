import { IdentityPolicy } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Saves what identity verification asks of users. */
export function saveIdentityPolicy(policy: IdentityPolicy) {
  return api('POST', '/identity-policy', { ...policy }, IdentityPolicy);
}
