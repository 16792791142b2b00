import { IndexSourcesPanel, type SetIndexMappingBody } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** How one venue prices a market (its default symbol, another, or off); answers the whole panel. */
export function setIndexMapping(symbol: string, body: SetIndexMappingBody) {
  return api('POST', `/index/sources/${encodeURIComponent(symbol)}/mapping`, { ...body }, IndexSourcesPanel);
}
