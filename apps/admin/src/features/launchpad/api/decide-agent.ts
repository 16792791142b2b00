import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Approves, rejects, suspends or reinstates an agent, with a note. */
export function decideAgent(id: string, decision: string, note: string) {
  return api('POST', `/agents/${id}/decision`, { decision, note }, z.unknown());
}
