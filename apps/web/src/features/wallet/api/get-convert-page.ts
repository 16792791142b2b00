import type { ConvertPage, ConvertQuery } from '@bourse/shared/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import type { WireInput } from '../../../api/wire-input.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/**
 * `GET /Finance/zhuanhua`: the published fee and the convertible coins, with a quote when `quote`
 * names both coins and an amount.
 */
export async function getConvertPage(
  quote: Required<WireInput<ConvertQuery>> | null,
  signal?: AbortSignal,
): Promise<ConvertPage> {
  return (await get('/Finance/zhuanhua', quote ? { ...quote } : {}, 'ConvertPage', { signal, silent: true }))
    .data;
}

export function convertPageQueryOptions(quote: Required<WireInput<ConvertQuery>> | null) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'convert', quote?.from ?? '', quote?.to ?? '', quote?.amount ?? ''],
    queryFn: ({ signal }) => getConvertPage(quote, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

export function useConvertPage(quote: Required<WireInput<ConvertQuery>> | null) {
  return useQuery(convertPageQueryOptions(quote));
}
