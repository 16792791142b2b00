import { API_BASE, postMultipart } from '../../../api/http.ts';
import { getToken } from '../../../shared/storage.ts';

/** `POST /user/chatimage` (multipart): a picture; resolves with the envelope of the stored message. */
export function sendChatImage(file: File) {
  const form = new FormData();
  form.append('image', file, file.name);
  return postMultipart('/user/chatimage', form, 'ChatMessageWire');
}

/** `GET /user/chatimg`: the address of a picture sent in the chat (an `<img>` loads it). */
export function chatImageUrl(name: string): string {
  const query = new URLSearchParams({ name, token: getToken() ?? '' });
  return `${API_BASE}/user/chatimg?${query}`;
}
