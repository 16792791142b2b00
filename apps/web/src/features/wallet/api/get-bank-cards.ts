import type { BankCard } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { walletQueryKey } from './wallet-query-key.ts';

/** Query key of the saved bank cards. */
export const bankCardsQueryKey = [...walletQueryKey, 'bank-cards'] as const;

/** `POST /user/userbanklist`: the user's saved bank cards (numbers masked). */
export async function getBankCards(signal?: AbortSignal): Promise<BankCard[]> {
  return (await post('/user/userbanklist', {}, 'BankCardList', { signal, silent: true })).data;
}

export function bankCardsQueryOptions() {
  return queryOptions({ queryKey: bankCardsQueryKey, queryFn: ({ signal }) => getBankCards(signal) });
}

export function useBankCards() {
  return useQuery(bankCardsQueryOptions());
}
