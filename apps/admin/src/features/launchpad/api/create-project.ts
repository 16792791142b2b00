import { type AdminProjectInput, CreatedId } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A draft project and its coin. */
export function createProject(values: AdminProjectInput) {
  return api('POST', '/launchpad/projects', { ...values }, CreatedId);
}
