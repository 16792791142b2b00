import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** Moves money into a coin's payout pool; a fresh idempotency key per call. */
export function fundPool(coin: string, amount: string) {
  return api(
    'POST',
    `/mining/pools/${coin}/fund`,
    { amount, idempotency_key: crypto.randomUUID() },
    z.unknown(),
  );
}
