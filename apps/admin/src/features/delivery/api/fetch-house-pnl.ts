import { HousePnl, type HousePnlFilter } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** The house's result over settled and closed contracts in a time range. */
export function fetchHousePnl(filter: Omit<HousePnlFilter, 'token'>) {
  return api('GET', '/delivery/pnl', { ...filter }, HousePnl);
}
