import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react';

const DesktopNotice = lazy(() => import('./desktop-notice.tsx'));

const MOBILE_UA = /Android|iPhone|iPad|iPod|Mobile|Mobi|Windows Phone|HarmonyOS|Opera Mini|IEMobile/i;
const WIDE_QUERY = '(min-width: 769px)';

function isMobileAgent(): boolean {
  const ua = navigator.userAgent;
  // why: iPadOS reports a desktop Safari agent; its touch points give it away.
  const isIpadOs = /Macintosh/.test(ua) && navigator.maxTouchPoints > 1;
  return MOBILE_UA.test(ua) || isIpadOs;
}

function subscribe(listener: () => void): () => void {
  const media = window.matchMedia(WIDE_QUERY);
  media.addEventListener('change', listener);
  return () => media.removeEventListener('change', listener);
}

/** Desktop = a desktop user agent in a window wider than a tablet. */
export function isDesktopBrowser(): boolean {
  return !isMobileAgent() && window.matchMedia(WIDE_QUERY).matches;
}

/** The product is mobile-only (spec §1): desktops get a notice with a QR code instead. */
export function DesktopGate({ children }: { children: ReactNode }) {
  const isDesktop = useSyncExternalStore(subscribe, isDesktopBrowser, () => false);
  if (!isDesktop) return children;
  return (
    <Suspense fallback={null}>
      <DesktopNotice />
    </Suspense>
  );
}
