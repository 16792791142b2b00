import { useRef } from 'react';
import { ApiError } from '../../../api/http.ts';
import { newIdempotencyKey } from '../../../shared/idempotency-key.ts';

/**
 * One idempotency key per submission of a money-moving sheet (margin, close): kept after a
 * network failure (the outcome is unknown, and the same key makes the retry safe), renewed after
 * any answer.
 */
export function useSubmissionKey() {
  const key = useRef(newIdempotencyKey());
  return {
    current: () => key.current,
    settle(error?: unknown) {
      if (!(error instanceof ApiError && error.code === -1)) key.current = newIdempotencyKey();
    },
  };
}
