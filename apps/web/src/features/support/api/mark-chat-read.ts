import { post } from '../../../api/http.ts';

/** `POST /user/chatread`: the staff's messages are read (silently: nothing to tell the customer). */
export function markChatRead() {
  return post('/user/chatread', undefined, 'NoData', { silent: true });
}
