import { AdminSnapshotList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The proof-of-reserves snapshots, newest first. */
export function listSnapshots() {
  return api('GET', '/reserves/snapshots', undefined, AdminSnapshotList);
}
