import type { AdminProjectInput } from '@bourse/shared/api';
import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** A draft's terms (a published project's terms never change). */
export function editProject(id: string, values: AdminProjectInput) {
  return api('POST', `/launchpad/projects/${id}`, { ...values }, z.unknown());
}
