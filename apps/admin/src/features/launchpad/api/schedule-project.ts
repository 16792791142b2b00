import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Publishes a draft (refused until its inventory holds the total issue). */
export function scheduleProject(id: string) {
  return api('POST', `/launchpad/projects/${id}/schedule`, undefined, z.unknown());
}
