import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { getToken, onSessionEnded, setToken } from '../api/client.ts';
import { fetchMe } from '../api/me.ts';
import { signOut as endSession } from '../api/sign-out.ts';

interface Session {
  me: Awaited<ReturnType<typeof fetchMe>> | undefined;
  isSignedIn: boolean;
  signIn(token: string): void;
  signOut(): Promise<void>;
  can(permission: string): boolean;
}

const SessionContext = createContext<Session | null>(null);

export const meQuery = { queryKey: ['me'], queryFn: fetchMe };

/** Holds the staff token and who is signed in; a code 100 anywhere signs out. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [token, setTokenState] = useState(getToken());
  const me = useQuery({ ...meQuery, enabled: token !== null });
  useEffect(
    () =>
      onSessionEnded(() => {
        setTokenState(null);
        client.clear();
      }),
    [client],
  );
  const session: Session = {
    me: token ? me.data : undefined,
    isSignedIn: token !== null,
    signIn(next) {
      setToken(next);
      setTokenState(next);
      void client.invalidateQueries();
    },
    async signOut() {
      await endSession().catch(() => undefined);
      setToken(null);
      setTokenState(null);
      client.clear();
    },
    can: (permission) => me.data?.permissions.includes(permission) ?? false,
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
