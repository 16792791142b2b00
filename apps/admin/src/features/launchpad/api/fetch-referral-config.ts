import { ReferralConfigInfo } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The referral programme: rates, generations, caps, budget, blocked countries. */
export function fetchReferralConfig() {
  return api('GET', '/launchpad/referral', undefined, ReferralConfigInfo);
}
