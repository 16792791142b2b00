import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { TERMS_REQUIRED_EVENT } from '../../../api/http.ts';
import { PATHS } from '../../../shared/paths.ts';
import { useHasToken } from '../../../shared/use-session.ts';
import { termsStatusKey, useTermsStatus } from '../api/terms.ts';

const TermsSheet = lazy(() => import('./terms-sheet.tsx'));

const normalise = (pathname: string) => pathname.toLowerCase().replace(/(.)\/+$/, '$1');

/** The texts the sheet links to: reading them keeps the request, and the sheet never covers them. */
const READING = [PATHS.terms, PATHS.privacy].map(normalise);
/** Pages the sheet never covers: those texts, the language and help pages, signing in or up. */
const UNCOVERED = [
  ...READING,
  ...[PATHS.language, PATHS.help, PATHS.helpArticle, PATHS.login, PATHS.register].map(normalise),
];

/**
 * Asks a signed-in customer to accept the terms of service in force, only when the server refuses
 * an action the terms gate for it (TERMS_NOT_ACCEPTED: placing a spot, perpetual or delivery order,
 * subscribing to a launchpad project or buying a miner, withdrawing), never on page load, so
 * browsing, reading and choosing a language stay open. The sheet belongs to the page where the
 * action was tried: it waits while the customer reads the terms or privacy policy it links to,
 * shows again on coming back, and is dropped on any other page or with "Later". The next refused
 * action opens it again.
 */
export function TermsGate() {
  const hasSession = useHasToken();
  const path = normalise(useLocation().pathname);
  const pathRef = useRef(path);
  pathRef.current = path;
  const client = useQueryClient();
  /** The page whose action the server refused for the terms (null: nothing asked). */
  const [requestedOn, setRequestedOn] = useState<string | null>(null);
  const status = useTermsStatus(hasSession && requestedOn !== null);

  useEffect(() => {
    const onRequired = () => {
      setRequestedOn(pathRef.current);
      // why: a version published since the status was read is what the server asks for.
      void client.invalidateQueries({ queryKey: termsStatusKey });
    };
    window.addEventListener(TERMS_REQUIRED_EVENT, onRequired);
    return () => window.removeEventListener(TERMS_REQUIRED_EVENT, onRequired);
  }, [client]);

  useEffect(() => {
    if (requestedOn !== null && path !== requestedOn && !READING.includes(path)) setRequestedOn(null);
  }, [path, requestedOn]);

  const data = status.data;
  const isOpen =
    hasSession && requestedOn === path && !UNCOVERED.includes(path) && data?.must_accept === true;
  if (!isOpen || !data) return null;
  return (
    <Suspense fallback={null}>
      <TermsSheet version={data.version} onLater={() => setRequestedOn(null)} />
    </Suspense>
  );
}
