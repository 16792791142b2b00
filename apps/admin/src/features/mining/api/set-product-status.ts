import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Puts a machine on sale (`normal`) or takes it off (`paused`). */
export function setProductStatus(id: string, status: 'normal' | 'paused') {
  return api('POST', `/mining/products/${id}/status`, { status }, z.unknown());
}
