import { AuditList, type AuditQuery } from '@bourse/shared/api';
import { api } from '../../../api/client.ts';

/** A page of the audit log, newest first. */
export function listAudit(filter: Omit<AuditQuery, 'token'>) {
  return api('GET', '/audit', { ...filter }, AuditList);
}
