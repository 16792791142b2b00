import { ReferralConfigInfo, type ReferralConfigInput } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Saves the referral programme (generations 2–3 need the owner's acknowledgement). */
export function saveReferralConfig(
  values: Omit<ReferralConfigInput, 'generations'> & { generations: number },
) {
  return api('POST', '/launchpad/referral', { ...values }, ReferralConfigInfo);
}
