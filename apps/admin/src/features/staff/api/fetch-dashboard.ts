import { Dashboard } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The dashboard's counts and health checks. */
export function fetchDashboard() {
  return api('GET', '/dashboard', undefined, Dashboard);
}
