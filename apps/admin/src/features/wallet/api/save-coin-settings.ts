import type { CoinSettingsBody } from '@bourse/shared/api';
import { z } from 'zod';
import { api } from '../../../api/client.ts';

/** A coin's switches: convertible, deposits, withdrawals, decimals shown. */
export function saveCoinSettings(coin: string, settings: Omit<CoinSettingsBody, 'token'>) {
  return api('POST', `/config/coins/${encodeURIComponent(coin)}`, settings, z.unknown());
}
