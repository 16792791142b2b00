import { z } from 'zod';
import { IdentitySubmitBody } from './account.ts';
import type { AdminClaims } from './content.ts';
import { textField } from './fields.ts';
import type { AdminProjectBody, AdminRecordList, ReferralConfigBody } from './launchpad.ts';
import { type AdminMiningProductBody, MiningProduct } from './mining.ts';
import type { SupportConversation } from './support.ts';

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
 * `POST /identity/:id/approve`: the document number and the issuing country as the reviewer reads
 * them on the image. The number must match the one the customer typed (compared by their keyed
 * hashes), so one real document cannot be approved under several invented numbers, each bringing a
 * trial grant; the country must be the one the customer declared, so the identity is recorded with
 * the country its document shows.
 */
export const IdentityApproveBody = z.object({
  idno: IdentitySubmitBody.shape.idno,
  country: IdentitySubmitBody.shape.country,
});
export type IdentityApproveBody = z.input<typeof IdentityApproveBody>;

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

/** `GET /identity/:id/image/:side`, `GET /support/images/:name`: one image as a data URL. */
export const ImageDataUrl = z.object({ dataUrl: z.string() });
export type ImageDataUrl = z.infer<typeof ImageDataUrl>;

/** `POST /notices/broadcasts`, and other creations that answer the new record's number. */
export const CreatedNumericId = z.object({ id: z.number().int() });
/** `POST /mining/products`, `POST /launchpad/projects`: the new record's id. */
export const CreatedId = z.object({ id: z.string() });

export type BroadcastBody = z.input<typeof BroadcastBody>;
export type BroadcastItem = z.infer<typeof BroadcastItem>;
export type OutboxItem = z.infer<typeof OutboxItem>;
export type OutboxQuery = z.input<typeof OutboxQuery>;
/** A support conversation as the console lists it (the schema lives with the support chat's). */
export type AdminSupportConversation = z.infer<typeof SupportConversation>;
/** The marketing claims as the content page shows them (the schema lives with the content's). */
export type AdminContentClaims = z.infer<typeof AdminClaims>;

/** `GET /mining/products`: every mining machine, on sale or not. */
export const AdminMiningProductList = z.object({ list: z.array(MiningProduct) });
export type AdminMiningProductList = z.infer<typeof AdminMiningProductList>;
/** `POST /mining/products`: a new machine as the form sends it (the schema lives with mining's). */
export type AdminMiningProductInput = z.input<typeof AdminMiningProductBody>;
/** A launchpad project as its form sends it (the schema lives with the launchpad's). */
export type AdminProjectInput = z.input<typeof AdminProjectBody>;
/** One subscription record of a project as the back office lists it. */
export type AdminProjectRecord = z.infer<typeof AdminRecordList>['list'][number];
/** The referral programme as its form sends it. */
export type ReferralConfigInput = z.input<typeof ReferralConfigBody>;
