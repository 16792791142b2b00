import { TrialSettings, type TrialSettingsBody } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Saves the trial money's turnover rule. */
export function saveTrialSettings(values: TrialSettingsBody) {
  return api('POST', '/delivery/trial-settings', { ...values }, TrialSettings);
}
