import type { AddReserveBody } from '@bourse/shared/api';
import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Adds a reserve address (with its balance) to a snapshot. */
export function addReserve(snapshotId: number, values: AddReserveBody) {
  return api('POST', `/reserves/snapshots/${snapshotId}/entries`, { ...values }, z.unknown());
}
