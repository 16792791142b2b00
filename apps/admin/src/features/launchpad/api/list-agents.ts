import { AdminAgentList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Agent applications and agents in one status (all when absent). */
export function listAgents(status: string | undefined) {
  return api('GET', '/agents', { status }, AdminAgentList);
}
