import { type ReactNode, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { TermsGate } from '../features/content/components/terms-gate.tsx';
import { getRouteMeta } from './routes.tsx';

/**
 * The shell of every page: page background from route metadata, scroll reset on new pages, and
 * the sheet that asks a signed-in customer to accept new terms of service.
 */
export function RootLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const { background } = getRouteMeta(pathname);

  useLayoutEffect(() => {
    const root = document.documentElement;
    root.dataset.background = background;
    // why: antd-mobile switches its own palette on this attribute.
    root.dataset.prefersColorScheme = background === 'white' ? 'light' : 'dark';
  }, [background]);

  useLayoutEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);

  return (
    <>
      {children}
      <TermsGate />
    </>
  );
}
