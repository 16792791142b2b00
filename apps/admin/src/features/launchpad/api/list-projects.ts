import { AdminProjectList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Every project with its state, inventory held and totals. */
export function listProjects() {
  return api('GET', '/launchpad/projects', undefined, AdminProjectList);
}
