/**
 * Who acts in the back office, as every staff use case takes it: the staff member's id and name,
 * the audit log's actor (`staff:<id>`) and the address the request came from. The `/admin-api`
 * hook resolves it from the staff session; each domain's staff use cases write it into their
 * audit records.
 */
export interface StaffActor {
  staffId: bigint;
  username: string;
  /** `staff:<id>`, the audit log's actor. */
  actor: string;
  ip: string;
}
