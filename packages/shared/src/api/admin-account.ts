import { z } from 'zod';
import { IdentitySubmitBody } from './account.ts';
import { textField } from './fields.ts';

const TokenQuery = z.object({ token: z.string().max(200).optional() });

export const IdentityQueueQuery = TokenQuery.extend({
  status: z.enum(['pending', 'approved', 'rejected']).optional().default('pending'),
  page: z.coerce.number().int().min(1).max(10_000).optional().default(1),
});

export const IdentityReview = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  type: z.string(),
  realName: z.string(),
  country: z.string(),
  mobile: z.string(),
  status: z.enum(['pending', 'approved', 'rejected']),
  reason: z.string(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.number().int().nullable(),
  createdAt: z.number().int(),
});
export type IdentityReview = z.infer<typeof IdentityReview>;

export const IdentityQueue = z.object({ list: z.array(IdentityReview), hasMore: z.boolean() });

export const IdentityIdParams = z.object({ id: z.coerce.number().int().min(1) });
export const IdentityImageParams = IdentityIdParams.extend({ side: z.enum(['front', 'back']) });

export const IdentityRejectBody = z.object({ reason: textField('PARAM_ERROR', { max: 500 }) });

/**
 * `POST /identity/:id/approve`: the document number as the reviewer reads it on the image. It must
 * match the one the customer typed (compared by their keyed hashes), so one real document cannot
 * be approved under several invented numbers, each bringing a trial grant.
 */
export const IdentityApproveBody = z.object({ idno: IdentitySubmitBody.shape.idno });

/** Which actions need a verified identity (the `identity.*` settings). */
export const IdentityPolicy = z.object({
  /** Withdrawals worth more than this in USDT need verification; '' = none do, '0' = all do. */
  withdrawAboveUsdt: z.string(),
  /** Placing spot orders and contracts needs verification. */
  trading: z.boolean(),
});
export type IdentityPolicy = z.infer<typeof IdentityPolicy>;

export const BroadcastBody = z.object({
  /** Title and body per locale; ja-JP is required (the fallback). */
  texts: z
    .record(
      z.string(),
      z.object({
        title: textField('PARAM_ERROR', { max: 120 }),
        body: textField('PARAM_ERROR', { max: 4000 }),
      }),
    )
    .refine((t) => 'ja-JP' in t, { error: 'PARAM_ERROR' }),
});

export const BroadcastItem = z.object({
  id: z.number().int(),
  title: z.string(),
  locales: z.array(z.string()),
  createdBy: z.string().nullable(),
  createdAt: z.number().int(),
});
export const BroadcastList = z.object({ list: z.array(BroadcastItem) });

export const OutboxItem = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  recipient: z.string(),
  subject: z.string(),
  body: z.string(),
  status: z.enum(['kept', 'sent', 'failed']),
  error: z.string(),
  createdAt: z.number().int(),
});
export const OutboxList = z.object({ list: z.array(OutboxItem) });
export const OutboxQuery = TokenQuery.extend({ recipient: z.string().max(255).optional() });
