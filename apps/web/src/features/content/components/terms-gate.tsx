import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { TERMS_REQUIRED_EVENT } from '../../../api/http.ts';
import { PATHS } from '../../../shared/paths.ts';
import { useHasToken } from '../../../shared/use-session.ts';
import { termsStatusKey, useTermsStatus } from '../api/terms.ts';

const TermsSheet = lazy(() => import('./terms-sheet.tsx'));

/** Pages the sheet never covers: the texts it links to, and signing in or up. */
const UNCOVERED = [PATHS.terms, PATHS.privacy, PATHS.login, PATHS.register].map((p) => p.toLowerCase());

/**
 * Asks a signed-in customer to accept the terms of service in force: on load when they have not
 * (an account registered by another client, or a new version published since), and again whenever
 * the server refuses an action for it (TERMS_NOT_ACCEPTED). "Later" closes it, as reading stays
 * open; the next refused action opens it again.
 */
export function TermsGate() {
  const hasSession = useHasToken();
  const { pathname } = useLocation();
  const client = useQueryClient();
  const status = useTermsStatus(hasSession);
  const [isDismissed, setIsDismissed] = useState(false);

  useEffect(() => {
    const onRequired = () => {
      setIsDismissed(false);
      // why: a version published since the status was read is what the server asks for.
      void client.invalidateQueries({ queryKey: termsStatusKey });
    };
    window.addEventListener(TERMS_REQUIRED_EVENT, onRequired);
    return () => window.removeEventListener(TERMS_REQUIRED_EVENT, onRequired);
  }, [client]);

  const data = status.data;
  const isOpen =
    hasSession &&
    data?.must_accept === true &&
    !isDismissed &&
    !UNCOVERED.includes(pathname.toLowerCase().replace(/(.)\/+$/, '$1'));
  if (!isOpen || !data) return null;
  return (
    <Suspense fallback={null}>
      <TermsSheet version={data.version} onLater={() => setIsDismissed(true)} />
    </Suspense>
  );
}
