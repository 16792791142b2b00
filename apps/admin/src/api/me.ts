import { StaffMe } from '@bourse/shared/api';
import { api } from './client.ts';

/** Who is signed in, with their permissions. */
export function fetchMe() {
  return api('GET', '/me', undefined, StaffMe);
}
