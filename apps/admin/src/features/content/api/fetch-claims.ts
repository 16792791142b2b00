import { AdminClaims } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The marketing claims, with what backs them. */
export function fetchClaims() {
  return api('GET', '/content-claims', undefined, AdminClaims);
}
