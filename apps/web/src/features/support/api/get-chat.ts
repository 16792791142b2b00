import type { ChatHistory } from '@bourse/shared/api';
import { get } from '../../../api/http.ts';

/** `GET /user/chat`: the newest messages, or those older than message `before`. */
export async function getChat(before: number | undefined, signal?: AbortSignal): Promise<ChatHistory> {
  return (await get('/user/chat', before ? { before } : undefined, 'ChatHistory', { signal })).data;
}
