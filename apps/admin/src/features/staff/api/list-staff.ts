import { StaffAccountList } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** Every staff account. */
export function listStaff() {
  return api('GET', '/staff', undefined, StaffAccountList);
}
