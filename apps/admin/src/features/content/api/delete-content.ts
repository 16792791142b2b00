import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Deletes an item. */
export function deleteContent(id: number) {
  return api('POST', `/content/${id}/delete`, undefined, z.unknown());
}
