import type { UserInfo } from '@bourse/shared/api';
import { PATHS } from '../shared/paths.ts';
import { isPublicPath } from './routes.tsx';

export type GuardDecision =
  | { type: 'proceed' }
  | { type: 'redirect'; to: string }
  /** The decision depends on the user info, which is not loaded yet. */
  | { type: 'needs-user-info' };

export interface GuardContext {
  hasToken: boolean;
  userInfo?: Pick<UserInfo, 'paypassword' | 'is_address'>;
}

const WITHDRAW_ENTRY = '/user/txcoin';

function normalize(path: string): string {
  return path.toLowerCase().replace(/(.)\/+$/, '$1');
}

/** Whether entering `path` needs the user info (the withdrawal entry checks password and address). */
export function needsUserInfo(path: string): boolean {
  return normalize(path) === WITHDRAW_ENTRY;
}

/**
 * The spec's navigation guards (§2), as a pure function of the path and the session:
 * - a stored token on /login goes to /;
 * - no token on a non-public path goes to /login;
 * - /User/txcoin needs a withdrawal password (else /Index/withdrawpwd), then a saved withdrawal
 *   address (else /User/addresslist).
 */
export function resolveGuard(path: string, context: GuardContext): GuardDecision {
  const key = normalize(path);
  // why: `/` only redirects to the public markets page, so it is judged after that redirect.
  if (key === '/') return { type: 'proceed' };
  if (key === PATHS.login && context.hasToken) return { type: 'redirect', to: PATHS.home };
  if (!context.hasToken)
    return isPublicPath(key) ? { type: 'proceed' } : { type: 'redirect', to: PATHS.login };
  if (key === WITHDRAW_ENTRY) {
    if (!context.userInfo) return { type: 'needs-user-info' };
    if (!context.userInfo.paypassword) return { type: 'redirect', to: PATHS.withdrawPassword };
    if (!context.userInfo.is_address) return { type: 'redirect', to: PATHS.addressList };
  }
  return { type: 'proceed' };
}
