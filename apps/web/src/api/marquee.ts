import { useQuery } from '@tanstack/react-query';
import { getCurrentLocale } from '../shared/i18n/i18n.ts';
import { get } from './http.ts';

/**
 * The newest pinned announcement's title (`/Index/marquee`), scrolled on the home page; in the
 * reader's language, a minute fresh.
 */
export function useMarquee() {
  return useQuery({
    queryKey: ['content', getCurrentLocale(), 'marquee'],
    queryFn: async ({ signal }) => (await get('/Index/marquee', undefined, 'Marquee', { signal })).data,
    staleTime: 60_000,
  });
}
