import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Forbids (or allows again) subscriptions to a published project, with a reason. */
export function setProjectDisabled(id: string, disabled: boolean, reason: string) {
  return api('POST', `/launchpad/projects/${id}/disabled`, { disabled, reason }, z.unknown());
}
