import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Records the issuer's tokens arriving in the project's inventory (once). */
export function fundInventory(id: string) {
  return api('POST', `/launchpad/projects/${id}/inventory`, undefined, z.unknown());
}
