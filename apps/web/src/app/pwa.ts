import Modal from 'antd-mobile/es/components/modal';
import i18n from 'i18next';

/**
 * Registers the service worker (production builds only) once the page has loaded, so it never
 * competes with the first render. When a new deployment is waiting, asks before switching: the
 * app reloads into the new version only when the user says so.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const start = () => {
    import('virtual:pwa-register')
      .then(({ registerSW }) => {
        const update = registerSW({
          onNeedRefresh() {
            Modal.confirm({
              content: i18n.t('pwa.updateReady'),
              confirmText: i18n.t('pwa.update'),
              cancelText: i18n.t('pwa.later'),
              onConfirm: () => update(true),
            });
          },
        });
      })
      .catch(() => {
        // no worker: the app works the same, it just does not start offline
      });
  };
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
