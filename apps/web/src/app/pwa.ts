import i18n from 'i18next';

/**
 * Registers the service worker (production builds only; called with the deferred code, once the
 * page has loaded, so it never competes with the first render). When a new deployment's worker has installed and waits, asks
 * before switching: only when the user accepts does the waiting worker take over (the generated
 * worker skips waiting on a `SKIP_WAITING` message) and the page reload into the new version.
 * Plain browser API rather than workbox-window: this is all of it, for none of the first page's
 * weight.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const start = () => {
    navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .then(watchForUpdates)
      .catch(() => {
        // no worker: the app works the same, it just does not start offline
      });
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

function watchForUpdates(registration: ServiceWorkerRegistration): void {
  let accepted = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    // why: only the switch the user asked for reloads; the first install takes control silently.
    if (accepted) window.location.reload();
  });
  const offer = (worker: ServiceWorker) => {
    // why: loaded only when an update waits, so the dialog stays out of the first page's weight.
    void import('antd-mobile/es/components/modal').then(({ default: Modal }) =>
      Modal.confirm({
        content: i18n.t('pwa.updateReady'),
        confirmText: i18n.t('pwa.update'),
        cancelText: i18n.t('pwa.later'),
        onConfirm: () => {
          accepted = true;
          worker.postMessage({ type: 'SKIP_WAITING' });
        },
      }),
    );
  };
  // a worker that installed while no page was open waits already
  if (registration.waiting && navigator.serviceWorker.controller) offer(registration.waiting);
  registration.addEventListener('updatefound', () => {
    const worker = registration.installing;
    worker?.addEventListener('statechange', () => {
      // why: "installed" with a controller is an update; without one it is the first install.
      if (worker.state === 'installed' && navigator.serviceWorker.controller) offer(worker);
    });
  });
}
