import { AdminTrialGrantList, type TrialGrantListQuery } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A page of trial grants, of one user or all. */
export function listTrialGrants(filter: Omit<TrialGrantListQuery, 'token'>) {
  return api('GET', '/delivery/trial-grants', { ...filter }, AdminTrialGrantList);
}
