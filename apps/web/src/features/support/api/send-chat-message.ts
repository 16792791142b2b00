import { post } from '../../../api/http.ts';

/** `POST /user/chatsend`: a text message; resolves with the envelope of the stored message. */
export function sendChatMessage(body: string) {
  return post('/user/chatsend', { body }, 'ChatMessageWire');
}
