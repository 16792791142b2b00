import { AdminRecordList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A project's subscription records. */
export function listRecords(projectId: string) {
  return api('GET', `/launchpad/projects/${projectId}/records`, undefined, AdminRecordList);
}
