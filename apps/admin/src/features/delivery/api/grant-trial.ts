import { AdminTrialGrant, type GrantTrialBody } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Grants a plan's trial money to a user; `key` makes a retry grant once. */
export function grantTrial(values: GrantTrialBody, key: string) {
  return api('POST', '/delivery/trial-grants', { ...values, key }, AdminTrialGrant);
}
