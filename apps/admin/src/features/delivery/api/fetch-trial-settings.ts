import { TrialSettings } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The trial money's turnover rule. */
export function fetchTrialSettings() {
  return api('GET', '/delivery/trial-settings', undefined, TrialSettings);
}
