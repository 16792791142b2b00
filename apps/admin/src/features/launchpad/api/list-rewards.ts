import { AdminRewardList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Referral rewards in one status (all when absent). */
export function listRewards(status: 'pending' | 'paid' | 'void' | 'capped' | undefined) {
  return api('GET', '/launchpad/rewards', { status }, AdminRewardList);
}
