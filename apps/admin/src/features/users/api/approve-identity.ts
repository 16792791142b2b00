import { IdentityReview } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Approves an identity submission, with the id number as the reviewer read it. */
export function approveIdentity(id: number, idno?: string) {
  return api('POST', `/identity/${id}/approve`, { idno }, IdentityReview);
}
