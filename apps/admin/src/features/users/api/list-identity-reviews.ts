import { IdentityQueue } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The identity submissions in one status. */
export function listIdentityReviews(status: string) {
  return api('GET', '/identity', { status }, IdentityQueue);
}
