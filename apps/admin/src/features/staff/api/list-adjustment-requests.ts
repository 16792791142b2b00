import { AdjustmentRequestList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Adjustments waiting for a second staff member. */
export function listPendingAdjustments() {
  return api('GET', '/adjustments', { status: 'pending' }, AdjustmentRequestList);
}
