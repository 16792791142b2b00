import type { NetworkSettingsBody } from '@bourse/shared/api';
import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Creates or updates (by coin and network name) a coin's network. */
export function saveNetwork(values: NetworkSettingsBody) {
  return api('POST', '/config/networks', { ...values }, z.unknown());
}
