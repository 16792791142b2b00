import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { get, post } from '../../../api/http.ts';

export const termsStatusKey = ['terms', 'status'] as const;

/** `GET /user/terms`: the version in force and whether this customer must accept it. */
export function getTermsStatus(signal?: AbortSignal) {
  return get('/user/terms', undefined, 'TermsStatus', { signal, silent: true }).then((body) => body.data);
}

export function useTermsStatus(isEnabled: boolean) {
  return useQuery({
    queryKey: termsStatusKey,
    queryFn: ({ signal }) => getTermsStatus(signal),
    enabled: isEnabled,
    staleTime: 60_000,
  });
}

/** `POST /user/acceptterms`: accepts the version read; refreshes the status. */
export function useAcceptTerms() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (version: number) => (await post('/user/acceptterms', { version }, 'TermsStatus')).data,
    onSuccess: (status) => client.setQueryData(termsStatusKey, status),
  });
}
