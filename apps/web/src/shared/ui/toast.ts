type ToastModule = typeof import('antd-mobile/es/components/toast');

let toastModule: Promise<ToastModule> | null = null;

function loadToast(): Promise<ToastModule> {
  toastModule ??= import('antd-mobile/es/components/toast');
  return toastModule;
}

/**
 * Shows a short message. antd-mobile's Toast (with its animation library) is fetched on first use
 * or when idle, so it stays out of the first page load.
 */
export function showToast(content: string, icon?: 'success' | 'fail' | 'loading'): void {
  if (!content) return;
  loadToast().then(
    (module) => module.default.show({ content, icon }),
    () => window.alert(content),
  );
}

/** Fetches the Toast code ahead of need, so the first message appears at once. */
export function preloadToast(): void {
  loadToast().catch(() => {
    toastModule = null;
  });
}
