import type { PlaceContractBody } from '@bourse/shared/api';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { post } from '../../../api/http.ts';
import type { WireInput } from '../../../api/wire-input.ts';
import { deliveryQueryKey } from './delivery-query-key.ts';

/**
 * `POST /Contract/place`: buys up or down; the amount is frozen and the opening price fixed. `trial`
 * `'1'` pays with trial money; one `idempotency_key` per submission (sending it twice places one).
 */
export function placeContract(input: WireInput<PlaceContractBody>) {
  return post('/Contract/place', { ...input }, 'ContractRecord', { action: 'trade' });
}

export function usePlaceContract() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: placeContract,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: deliveryQueryKey }),
  });
}
