/**
 * The browser's offer to install the app (Chromium's `beforeinstallprompt`), kept from the moment
 * it fires so a page can show it later: the event comes once, early, and must be saved to be used.
 * Safari has no such event; there the download page explains "Add to Home Screen" instead.
 */

/** The non-standard event Chromium fires when the app can be installed. */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

let saved: InstallPromptEvent | null = null;
let isListening = false;
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

/** Starts keeping the install offer (once, at start: main.tsx). */
export function captureInstallPrompt(): void {
  if (isListening || typeof window === 'undefined') return;
  isListening = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    // why: without preventDefault the browser may show its own mini-bar at a moment we did not pick.
    event.preventDefault();
    saved = event as InstallPromptEvent;
    notify();
  });
  window.addEventListener('appinstalled', () => {
    saved = null;
    notify();
  });
}

/** The saved offer, or null when the browser made none (yet). */
export function getInstallPrompt(): InstallPromptEvent | null {
  return saved;
}

/** Calls `listener` whenever the offer comes or goes; returns the unsubscribe function. */
export function subscribeInstallPrompt(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Shows the browser's install dialog; resolves with whether the user accepted. The offer can be
 * used once, so it is dropped either way.
 */
export async function promptInstall(): Promise<boolean> {
  const event = saved;
  if (!event) return false;
  saved = null;
  notify();
  await event.prompt();
  const choice = await event.userChoice;
  return choice.outcome === 'accepted';
}

/** Whether the app already runs installed (from the home screen, not in a browser tab). */
export function isRunningInstalled(): boolean {
  const standalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return standalone || window.matchMedia?.('(display-mode: standalone)').matches === true;
}
