import { MsbCertificate } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Removes the MSB certificate image (audited). */
export function removeMsbCertificate() {
  return api('POST', '/content-msb/delete', undefined, MsbCertificate);
}
