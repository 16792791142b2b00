import type { TrialPlanBody } from '@bourse/shared/api';
import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Creates a trial plan, or updates the one `values.id` names. */
export function saveTrialPlan(values: TrialPlanBody) {
  return api('POST', '/delivery/trial-plans', { ...values }, z.unknown());
}
