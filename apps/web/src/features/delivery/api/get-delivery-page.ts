import type { DeliveryPage } from '@bourse/shared/api';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';
import { syncServerClock } from '../../../shared/server-clock.ts';
import { deliveryQueryKey } from './delivery-query-key.ts';

/** `GET /Contract/index`: the markets with their periods, both balances, trial grants, the server's clock. */
export async function getDeliveryPage(signal?: AbortSignal): Promise<DeliveryPage> {
  const sentAt = Date.now();
  const page = (await get('/Contract/index', {}, 'DeliveryPage', { signal, silent: true })).data;
  syncServerClock(page.server_time, sentAt);
  return page;
}

export const deliveryPageQueryKey = [...deliveryQueryKey, 'page'] as const;

export function deliveryPageQueryOptions() {
  return queryOptions({
    queryKey: deliveryPageQueryKey,
    queryFn: ({ signal }) => getDeliveryPage(signal),
  });
}

export function useDeliveryPage() {
  return useQuery(deliveryPageQueryOptions());
}
