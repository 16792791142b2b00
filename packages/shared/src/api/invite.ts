import { z } from 'zod';
import { tokenField } from './fields.ts';
import { pageField } from './wallet.ts';

/** GET `/user/tgcode`: the caller's invitation code and team; `generation` 1–3 picks the members listed. */
export const TeamQuery = z.object({
  generation: z.coerce
    .number({ error: 'PARAM_ERROR' })
    .int({ error: 'PARAM_ERROR' })
    .min(1, { error: 'PARAM_ERROR' })
    .max(3, { error: 'PARAM_ERROR' })
    .optional()
    .default(1),
  page: pageField,
  token: tokenField,
});
export type TeamQuery = z.input<typeof TeamQuery>;

export const TeamMember = z.object({
  /** Masked (`ab***c`, `ab***@x.com`): never the whole name, a balance or a contact. */
  name: z.string(),
  joined_at: z.number().int(),
  verified: z.boolean(),
});
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamInfo = z.object({
  invite_code: z.string(),
  /** Members per generation: first, second, third. */
  counts: z.tuple([z.number().int(), z.number().int(), z.number().int()]),
  generation: z.number().int(),
  page: z.number().int(),
  members: z.array(TeamMember),
  has_more: z.boolean(),
});
export type TeamInfo = z.infer<typeof TeamInfo>;
