import { ImageDataUrl } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** An image sent in a support chat. */
export function fetchChatImage(name: string) {
  return api('GET', `/support/images/${name}`, undefined, ImageDataUrl);
}
