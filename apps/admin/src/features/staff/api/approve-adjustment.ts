import { AdjustResult } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A second finance member approves an adjustment: the entry is posted. */
export function approveAdjustment(id: string) {
  return api('POST', `/adjustments/${id}/approve`, {}, AdjustResult);
}
