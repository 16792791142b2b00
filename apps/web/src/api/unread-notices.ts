import { useQuery, useQueryClient } from '@tanstack/react-query';
import { get } from './http.ts';
import { usePrivateChannel } from './ws.ts';

/** The unread-notice count's query key; the notification pages update it when they mark read. */
export const unreadNoticesKey = ['account', 'notices', 'unread'] as const;
/** The notification list's query key prefix (refetched when the count changes). */
export const noticesKey = ['account', 'notices'] as const;

/**
 * The unread-notice count, live: the first answer over HTTP (`GET /user/noticecount`), then the
 * `notices` channel of /ws (`{unread}` after the user's own notices change, `{broadcast: true}`
 * when staff send one).
 */
export function useLiveUnread(): number {
  const queryClient = useQueryClient();
  const unread = useQuery({
    queryKey: unreadNoticesKey,
    queryFn: async ({ signal }) =>
      (await get('/user/noticecount', undefined, 'UnreadCount', { signal, silent: true })).data.unread,
  });
  usePrivateChannel('notices', (data) => {
    const message = data as { unread?: number; broadcast?: boolean };
    if (typeof message.unread === 'number') queryClient.setQueryData(unreadNoticesKey, message.unread);
    else if (message.broadcast) {
      queryClient.setQueryData(unreadNoticesKey, (n: number | undefined) => (n ?? 0) + 1);
    }
    queryClient.invalidateQueries({ queryKey: [...noticesKey, 'list'] });
  });
  return unread.data ?? 0;
}
