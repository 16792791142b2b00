import { useSyncExternalStore } from 'react';
import { hasToken, subscribeSession } from './storage.ts';

/** True while a token is stored; re-renders on login and logout. */
export function useHasToken(): boolean {
  return useSyncExternalStore(subscribeSession, hasToken, () => false);
}
