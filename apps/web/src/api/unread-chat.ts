import { useState } from 'react';
import { usePrivateChannel } from './ws.ts';

/** Support's unread messages, live from the private `chat` channel of /ws (its snapshot, then each message). */
export function useChatUnread(): number {
  const [unread, setUnread] = useState(0);
  usePrivateChannel('chat', (data) => {
    const frame = data as { unread?: number };
    if (typeof frame.unread === 'number') setUnread(frame.unread);
  });
  return unread;
}
