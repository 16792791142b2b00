import { AdminClaims } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The marketing claims ('' withdraws one). */
export function saveClaims(leverageMax: string, reserveBtc: string) {
  return api('POST', '/content-claims', { leverageMax, reserveBtc }, AdminClaims);
}
