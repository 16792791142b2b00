import { MsbCertificate } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Sets or replaces the MSB certificate image (checked and re-encoded by the server; audited). */
export function uploadMsbCertificate(file: File) {
  const form = new FormData();
  form.append('image', file, file.name);
  return api('POST', '/content-msb', form, MsbCertificate);
}
