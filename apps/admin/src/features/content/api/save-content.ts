import { type AdminContentBody, AdminContentItem } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Creates an item, or updates the one `id` names. */
export function saveContent(id: number | undefined, values: AdminContentBody) {
  return api('POST', id ? `/content/${id}` : '/content', { ...values }, AdminContentItem);
}
