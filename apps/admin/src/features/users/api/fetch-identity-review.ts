import { IdentityReview } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** One identity submission. */
export function fetchIdentityReview(id: number) {
  return api('GET', `/identity/${id}`, undefined, IdentityReview);
}
