import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Cancels a project, with a reason. */
export function cancelProject(id: string, reason: string) {
  return api('POST', `/launchpad/projects/${id}/cancel`, { reason }, z.unknown());
}
