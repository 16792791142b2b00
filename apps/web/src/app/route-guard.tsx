import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { userInfoQueryOptions } from '../api/get-user-info.ts';
import { PageFallback } from '../shared/ui/lazy-fallback.tsx';
import { useHasToken } from '../shared/use-session.ts';
import { needsUserInfo, resolveGuard } from './guards.ts';

/**
 * Applies the guards before any page renders, on every navigation and whenever the session
 * changes (a forced logout on a private page lands on /login by this same rule).
 */
export function RouteGuard({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const hasToken = useHasToken();
  const isUserInfoNeeded = hasToken && needsUserInfo(pathname);
  const user = useQuery({ ...userInfoQueryOptions(), enabled: isUserInfoNeeded });
  // why: a cached answer that is being refetched may be out of date (a withdrawal address saved a
  // moment ago on another page): the guard waits for the fresh one rather than decide on it.
  const userInfo = user.isFetching && user.isStale ? undefined : user.data;
  const decision = resolveGuard(pathname, { hasToken, userInfo });

  if (decision.type === 'redirect') return <Navigate to={decision.to} replace />;
  // why: if the user info cannot load, the client already said why; the page itself decides next.
  if (decision.type === 'needs-user-info' && !user.isError) return <PageFallback />;
  return children;
}
