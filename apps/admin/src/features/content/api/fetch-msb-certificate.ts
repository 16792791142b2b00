import { MsbCertificate } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The MSB certificate image's URL ('' when none is set). */
export function fetchMsbCertificate() {
  return api('GET', '/content-msb', undefined, MsbCertificate);
}
