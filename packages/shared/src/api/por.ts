import { z } from 'zod';
import { tokenField } from './fields.ts';
import { idField } from './wallet.ts';

/**
 * Proof of reserves and liabilities (`/apiv/por/*`): the signed snapshot headers and the caller's
 * own inclusion proof, in the exact shapes the verifier (`@bourse/por`) checks.
 */
const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
const amount = z.string().regex(/^(?:0|[1-9][0-9]*)$/);

export const ReserveEntry = z.object({
  asset: z.string(),
  chain: z.string(),
  address: z.string(),
  balance: amount,
  height: z.number().int(),
  block_hash: z.string(),
  message: z.string(),
  sig: z.string(),
  scheme: z.string(),
  simulated: z.boolean().optional(),
});
export type ReserveEntry = z.infer<typeof ReserveEntry>;

export const SnapshotHeader = z.object({
  version: z.literal(1),
  snapshot_id: z.number().int(),
  taken_at: z.string(),
  ledger_seq: z.number().int(),
  assets: z.array(z.string()),
  leaf_count: z.number().int(),
  depth: z.number().int(),
  root: hex(32),
  root_sums: z.array(amount),
  trial_total: z.record(z.string(), amount),
  reserves: z.array(ReserveEntry),
  reserve_totals: z.record(z.string(), amount),
  ratios: z.record(z.string(), z.string()),
  prev: hex(32),
  sig: hex(64),
});
export type SnapshotHeader = z.infer<typeof SnapshotHeader>;

/** GET `/por/snapshots`: the published headers, newest first, and the publication key. */
export const SnapshotList = z.object({
  public_key: hex(32),
  fingerprint: z.string(),
  list: z.array(SnapshotHeader),
});
export type SnapshotList = z.infer<typeof SnapshotList>;

/** GET `/por/proof`: the caller's own proof in one snapshot (the latest when none is named). */
export const ProofQuery = z.object({
  snapshot_id: idField.optional(),
  token: tokenField,
});
export type ProofQuery = z.input<typeof ProofQuery>;

export const InclusionProof = z.object({
  snapshot_id: z.number().int(),
  user_id: z.number().int(),
  salt: hex(32),
  balances: z.array(amount),
  leaf_index: z.number().int(),
  path: z.array(z.object({ side: z.enum(['L', 'R']), hash: hex(32), sums: z.array(amount) })),
});
export type InclusionProof = z.infer<typeof InclusionProof>;

/** GET `/por/statement`: the caller's counted balances per asset at the snapshot's ledger sequence. */
export const ReserveStatement = z.object({
  snapshot_id: z.number().int(),
  ledger_seq: z.number().int(),
  assets: z.array(z.string()),
  balances: z.array(amount),
});
export type ReserveStatement = z.infer<typeof ReserveStatement>;
