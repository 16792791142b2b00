import { z } from 'zod';
import { isAmountString } from '../format.ts';
import { ReserveEntry } from './por.ts';

/** `/admin-api/reserves/*`: proof-of-reserves snapshots and their reserve entries (back office). */

export const RESERVE_CHAINS = ['bitcoin', 'ethereum', 'bsc', 'polygon', 'arbitrum'] as const;

export const AdminSnapshot = z.object({
  id: z.number().int(),
  takenAt: z.number().int(),
  ledgerSeq: z.number().int(),
  status: z.enum(['pending', 'published']),
  publishAt: z.number().int(),
  monthly: z.boolean(),
  assets: z.array(z.string()),
  root: z.string(),
  rootSums: z.array(z.string()),
  /** What every reserve entry of this snapshot must sign. */
  message: z.string(),
  reserves: z.array(ReserveEntry),
});
export type AdminSnapshot = z.infer<typeof AdminSnapshot>;

export const AdminSnapshotList = z.object({
  publicKey: z.string(),
  fingerprint: z.string(),
  list: z.array(AdminSnapshot),
});
export type AdminSnapshotList = z.infer<typeof AdminSnapshotList>;

export const SnapshotIdParams = z.object({
  id: z.coerce
    .number({ error: 'POR_NO_SNAPSHOT' })
    .int({ error: 'POR_NO_SNAPSHOT' })
    .positive({ error: 'POR_NO_SNAPSHOT' }),
});

/** POST `/reserves/snapshots/:id/entries`: an address's balance at a block, signed over the snapshot's message. */
export const AddReserveBody = z.object({
  asset: z.string().regex(/^[A-Z0-9]{1,16}$/, { error: 'POR_RESERVE_ASSET' }),
  chain: z.enum(RESERVE_CHAINS, { error: 'POR_RESERVE_SIGNATURE' }),
  address: z
    .string()
    .min(10, { error: 'POR_RESERVE_SIGNATURE' })
    .max(100, { error: 'POR_RESERVE_SIGNATURE' }),
  // why: the same bound as every amount (MAX_AMOUNT_INTEGER_DIGITS): the balance is kept in atoms
  // in a signed 64-bit column, and reserve totals add many of them.
  balance: z.string().refine(isAmountString, { error: 'CONFIG_AMOUNT_INVALID' }),
  height: z.coerce
    .number({ error: 'PARAM_ERROR' })
    .int({ error: 'PARAM_ERROR' })
    .min(0, { error: 'PARAM_ERROR' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'PARAM_ERROR' }),
  blockHash: z.string().min(1, { error: 'PARAM_ERROR' }).max(100, { error: 'PARAM_ERROR' }),
  sig: z.string().min(10, { error: 'POR_RESERVE_SIGNATURE' }).max(400, { error: 'POR_RESERVE_SIGNATURE' }),
});
export type AddReserveBody = z.input<typeof AddReserveBody>;

export const PublishResult = z.object({ published: z.number().int() });
