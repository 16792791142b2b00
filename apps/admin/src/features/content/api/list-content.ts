import { AdminContentList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The items of one kind (announcements, help articles or pages). */
export function listContent(kind: 'announcement' | 'help' | 'page') {
  return api('GET', '/content', { kind }, AdminContentList);
}
