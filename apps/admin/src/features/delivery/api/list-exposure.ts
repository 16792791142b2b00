import { DeliveryExposureList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The house's open exposure per product. */
export function listExposure() {
  return api('GET', '/delivery/exposure', undefined, DeliveryExposureList);
}
