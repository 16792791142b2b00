import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

/** A graphic code: `key` goes back with the answer, `img` is a data: URL of the picture. */
export interface Captcha {
  key: string;
  img: string;
}

export const captchaQueryKey = ['auth', 'captcha'] as const;

export async function getCaptcha(signal?: AbortSignal): Promise<Captcha> {
  return (await get<Captcha>('/Login/captcha', {}, { signal, silent: true })).data;
}

export function captchaQueryOptions() {
  return queryOptions({
    queryKey: captchaQueryKey,
    queryFn: ({ signal }) => getCaptcha(signal),
    // why: each code is single-use; a new one is fetched on demand, never reused from cache.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    // why: a page that replaces another in the same render (register, then login) finds the code
    // the last page showed still cached, possibly spent by its submit; each page asks for its own.
    refetchOnMount: 'always',
    retry: false,
  });
}

export function useCaptcha(options: { enabled: boolean }) {
  return useQuery({ ...captchaQueryOptions(), enabled: options.enabled });
}
