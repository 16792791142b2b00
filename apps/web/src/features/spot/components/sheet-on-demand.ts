import { useEffect, useState } from 'react';

/**
 * The trade page's sheets (market switcher, cancel-all) open only on a tap, so their code (the
 * Popup and its animation and gesture libraries) loads on the first opening, not with the page.
 */

/** True from the first time `isOpen` is: the sheet is mounted from then on, so it also slides out. */
export function useHasOpened(isOpen: boolean): boolean {
  const [hasOpened, setHasOpened] = useState(isOpen);
  if (isOpen && !hasOpened) setHasOpened(true);
  return hasOpened;
}

/**
 * `isOpen`, held false for the sheet's first render: a Popup mounted already open would appear
 * at once, where a sheet mounted with the page slides in.
 */
export function useOpenAfterMount(isOpen: boolean): boolean {
  const [isMounted, setIsMounted] = useState(false);
  useEffect(() => setIsMounted(true), []);
  return isOpen && isMounted;
}
