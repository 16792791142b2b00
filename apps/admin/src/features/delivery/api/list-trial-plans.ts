import { TrialPlanList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Every trial plan. */
export function listTrialPlans() {
  return api('GET', '/delivery/trial-plans', undefined, TrialPlanList);
}
