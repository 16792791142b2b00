import { type IdentityApproveBody, IdentityReview } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/**
 * Approves an identity submission, with the document number and the issuing country as the
 * reviewer read them on the image.
 */
export function approveIdentity(id: number, confirmed: IdentityApproveBody) {
  return api('POST', `/identity/${id}/approve`, { ...confirmed }, IdentityReview);
}
