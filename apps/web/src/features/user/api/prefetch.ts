import type { FetchQueryOptions, QueryKey } from '@tanstack/react-query';
import { queryClient } from '../../../app/query-client.ts';
import { hasToken } from '../../../shared/storage.ts';

/**
 * Starts a page's queries when its module loads, not when it first renders. The entry route's
 * module loads while the app's texts do (main.tsx), and its queries would otherwise wait for those
 * and for the first render; started here they are on their way meanwhile, and the page's useQuery
 * takes the answer (or the request in flight) from the cache. Fresh answers are not asked again.
 * Without a session nothing is asked: the guard sends the visitor to /login.
 */
export function prefetchOnLoad<Data, Key extends QueryKey>(
  query: FetchQueryOptions<Data, Error, Data, Key>,
): void {
  if (hasToken()) void queryClient.prefetchQuery(query);
}
