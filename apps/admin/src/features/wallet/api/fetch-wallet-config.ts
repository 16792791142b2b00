import { WalletConfigAnswer } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Every coin's switches and networks. */
export function fetchWalletConfig() {
  return api('GET', '/config/coins', undefined, WalletConfigAnswer);
}
