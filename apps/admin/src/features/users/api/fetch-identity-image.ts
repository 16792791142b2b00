import { ImageDataUrl } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** One side of an identity document (each read is audited). */
export function fetchIdentityImage(id: number, side: 'front' | 'back') {
  return api('GET', `/identity/${id}/image/${side}`, undefined, ImageDataUrl);
}
