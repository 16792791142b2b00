import type { ContentPageSlug } from '@bourse/shared/api';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { getCurrentLocale } from '../../../shared/i18n/i18n.ts';

/** Announcements and help articles: the list and detail calls of each. */
export type ContentKind = 'announcement' | 'help';
const CALLS: Record<ContentKind, { list: string; detail: string }> = {
  announcement: { list: '/Index/gglist', detail: '/Index/gginfo' },
  help: { list: '/Index/help', detail: '/Index/helpinfo' },
};

// why: content is answered in the reader's language, so the language is part of every key.
const key = (...parts: (string | number)[]) => ['content', getCurrentLocale(), ...parts] as const;

export function useContentList(kind: ContentKind) {
  return useInfiniteQuery({
    queryKey: key(kind, 'list'),
    queryFn: async ({ pageParam, signal }) =>
      (await get(CALLS[kind].list, { page: pageParam }, 'ContentList', { signal })).data,
    initialPageParam: 1,
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
  });
}

export function useContentItem(kind: ContentKind, id: number) {
  return useQuery({
    queryKey: key(kind, id),
    queryFn: async ({ signal }) => (await get(CALLS[kind].detail, { id }, 'ContentDetail', { signal })).data,
    enabled: id > 0,
  });
}

/** `/Index/page`: about us, the MSB certificate, the privacy policy, the terms or the whitepaper. */
export function useContentPage(slug: ContentPageSlug) {
  return useQuery({
    queryKey: key('page', slug),
    queryFn: async ({ signal }) => (await get('/Index/page', { slug }, 'ContentDetail', { signal })).data,
  });
}

/** The operator's marketing claims ('' = not made). */
export function useClaims() {
  return useQuery({
    queryKey: ['content', 'claims'],
    queryFn: async ({ signal }) => (await get('/Index/claims', undefined, 'Claims', { signal })).data,
    staleTime: 60_000,
  });
}
