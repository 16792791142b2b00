import { hasToken } from '../../../shared/storage.ts';

/** How long an answer fetched ahead stays good for the page's first query. */
const MAX_AGE_MS = 5_000;

const early = new Map<string, { at: number; answer: Promise<unknown> }>();

/** The current route's path and query, from the hash (`#/User/czpage?coin=USDT`). */
function currentRoute(): { path: string; params: URLSearchParams } {
  const [path = '', search = ''] = window.location.hash.replace(/^#/, '').split('?');
  return { path: path.toLowerCase(), params: new URLSearchParams(search) };
}

/**
 * Starts a page's first data request when its module loads, if the current route is that page and
 * there is a session: the request then runs while the page's texts load and React renders, not
 * after. `request` gets the route's query; `key` must be what `takeEarlyAnswer` is asked for.
 */
export function fetchAhead<T>(
  path: string,
  key: (params: URLSearchParams) => string,
  request: (params: URLSearchParams) => Promise<T>,
): void {
  const route = currentRoute();
  if (route.path !== path.toLowerCase() || !hasToken()) return;
  const answer = request(route.params);
  // why: a failure reaches the query that takes the answer; unclaimed, it is dropped.
  answer.catch(() => undefined);
  early.set(key(route.params), { at: Date.now(), answer });
}

/** The answer `fetchAhead` started under `key`, once and while fresh; else undefined. */
export function takeEarlyAnswer<T>(key: string): Promise<T> | undefined {
  const entry = early.get(key);
  if (!entry) return undefined;
  early.delete(key);
  return Date.now() - entry.at <= MAX_AGE_MS ? (entry.answer as Promise<T>) : undefined;
}
