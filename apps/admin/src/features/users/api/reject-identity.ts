import { IdentityReview } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Rejects an identity submission, with the reason the user sees. */
export function rejectIdentity(id: number, reason?: string) {
  return api('POST', `/identity/${id}/reject`, { reason }, IdentityReview);
}
