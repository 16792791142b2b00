import type { CaptchaImage } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

export const captchaQueryKey = ['auth', 'captcha'] as const;

export async function getCaptcha(signal?: AbortSignal): Promise<CaptchaImage> {
  return (await get('/Login/captcha', {}, 'CaptchaImage', { signal, silent: true })).data;
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
