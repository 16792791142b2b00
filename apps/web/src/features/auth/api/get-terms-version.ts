import { useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

/** `GET /Index/terms`: the terms-of-service version in force (0: none, so the form shows no box). */
export async function getTermsVersion(signal?: AbortSignal): Promise<number> {
  return (await get('/Index/terms', undefined, 'TermsVersion', { signal, silent: true })).data.version;
}

export function useTermsVersion() {
  return useQuery({ queryKey: ['auth', 'terms-version'], queryFn: ({ signal }) => getTermsVersion(signal) });
}
