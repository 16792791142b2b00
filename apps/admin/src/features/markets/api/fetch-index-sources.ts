import { IndexSourcesPanel } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Every market's index sources: venues, mappings and their states. */
export function fetchIndexSources() {
  return api('GET', '/index/sources', undefined, IndexSourcesPanel);
}
