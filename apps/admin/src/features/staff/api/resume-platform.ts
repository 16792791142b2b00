import { PlatformHalt } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Clears the platform halt with a reason; the server runs the ledger check again first. */
export function resumePlatform(reason: string) {
  return api('POST', '/platform/resume', { reason }, PlatformHalt);
}
