import { z } from 'zod';
import type { ResultKey } from '../errors.ts';

// why: control characters are never meaningful in these fields, and PostgreSQL refuses NUL in text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

/**
 * A required string field whose problems map to result keys: missing → PARAM_MISSING,
 * anything else (wrong type, too long) → `invalid`. Leading and trailing spaces are trimmed.
 */
export function textField(invalid: ResultKey, options: { min?: number; max: number; trim?: boolean }) {
  const base = z.string({ error: (issue) => (issue.input === undefined ? 'PARAM_MISSING' : invalid) });
  const trimmed = options.trim === false ? base : base.trim();
  return trimmed
    .min(options.min ?? 1, { error: options.min ? invalid : 'PARAM_MISSING' })
    .max(options.max, { error: invalid })
    .refine((v) => !CONTROL_CHARS.test(v), { error: invalid });
}

/** An optional string field: absent or empty gives ''. */
export function optionalText(invalid: ResultKey, max: number) {
  return z
    .string({ error: invalid })
    .trim()
    .max(max, { error: invalid })
    .refine((v) => !CONTROL_CHARS.test(v), { error: invalid })
    .optional()
    .transform((v) => v ?? '');
}

/** A terms-of-service version as sent by a form (a whole number, 1 and up); anything else is stale. */
export const termsVersionField = z.coerce
  .number({ error: 'TERMS_VERSION_STALE' })
  .int({ error: 'TERMS_VERSION_STALE' })
  .min(1, { error: 'TERMS_VERSION_STALE' })
  .max(1_000_000_000, { error: 'TERMS_VERSION_STALE' });

/** Session token as a request field; the auth hook reads it, schemas only allow it. */
export const tokenField = z.string().max(200).optional();

/** An optional secret (e.g. the old withdrawal password): any text without control characters. */
export function optionalSecret(invalid: ResultKey, max: number) {
  return z
    .string({ error: invalid })
    .max(max, { error: invalid })
    .refine((v) => !CONTROL_CHARS.test(v), { error: invalid })
    .optional();
}

/** The answer of a call that answers nothing but its message (`data: null`). */
export const NoData = z.null();
export type NoData = z.infer<typeof NoData>;
