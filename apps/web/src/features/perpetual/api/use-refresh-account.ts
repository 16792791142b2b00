import { useQueryClient } from '@tanstack/react-query';
import { perpMineKey } from './perp-query-key.ts';

/** After every action: the account, the open orders and the histories are read again. */
export function useRefreshAccount() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: perpMineKey });
}
