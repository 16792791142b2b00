import { type ContractDirection, ContractRecord } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import { deliveryQueryKey } from './delivery-query-key.ts';

export interface PlaceContractInput {
  symbol: string;
  direction: ContractDirection;
  /** Seconds, one of the market's periods. */
  period: number;
  amount: string;
  /** Pays with trial money instead of real USDT. */
  isTrial: boolean;
  /** One key per submission: sending it twice places one contract. */
  idempotencyKey: string;
}

/** `POST /Contract/place`: buys up or down; the amount is frozen and the opening price fixed. */
export function placeContract(input: PlaceContractInput) {
  return post(
    '/Contract/place',
    {
      symbol: input.symbol,
      direction: input.direction,
      period: input.period,
      amount: input.amount,
      trial: input.isTrial ? '1' : '0',
      idempotency_key: input.idempotencyKey,
    },
    ContractRecord,
  );
}

export function usePlaceContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeContract,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveryQueryKey }),
  });
}
