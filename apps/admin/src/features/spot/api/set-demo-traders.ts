import { AdminMakerOverview } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Turns the demo traders on or off. */
export function setDemoTraders(on: boolean) {
  return api('POST', '/spot/demo-traders', { on }, AdminMakerOverview);
}
