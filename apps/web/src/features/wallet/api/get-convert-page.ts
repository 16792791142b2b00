import { ConvertPage } from '@bourse/shared/api';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

export interface ConvertQuoteRequest {
  from: string;
  to: string;
  amount: string;
}

/**
 * `GET /Finance/zhuanhua`: the published fee and the convertible coins, with a quote when `quote`
 * names both coins and an amount.
 */
export async function getConvertPage(
  quote: ConvertQuoteRequest | null,
  signal?: AbortSignal,
): Promise<ConvertPage> {
  return (await get('/Finance/zhuanhua', quote ? { ...quote } : {}, ConvertPage, { signal, silent: true }))
    .data;
}

export function convertPageQueryOptions(quote: ConvertQuoteRequest | null) {
  return queryOptions({
    queryKey: [...walletQueryKey, 'convert', quote?.from ?? '', quote?.to ?? '', quote?.amount ?? ''],
    queryFn: ({ signal }) => getConvertPage(quote, signal),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

export function useConvertPage(quote: ConvertQuoteRequest | null) {
  return useQuery(convertPageQueryOptions(quote));
}
