import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot, type Root } from 'react-dom/client';
import { configureHttp } from '../api/http.ts';
import { PATHS } from '../shared/paths.ts';
import { takeNoticeFromLastLoad as takeStoredNotice } from '../shared/storage.ts';
import { preloadToast, showToast } from '../shared/ui/toast.ts';
import { queryClient } from './query-client.ts';
import { APP_ROUTES, isPublicPath, setPageQueryClient } from './routes.tsx';

type Container = (Element | DocumentFragment) & { _bourseRoot?: Root };

/**
 * Keeps zod from compiling parsers with `new Function`. It probes for eval when a schema is built,
 * and the Content-Security-Policy (no 'unsafe-eval') reports even the caught probe. zod reads its
 * settings from `globalThis.__zod_globalConfig`, so they are set here, before any schema module
 * loads, without bringing zod into the first page load.
 */
export function installZodConfig(): void {
  const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
}

/** antd-mobile renders Toast, Dialog and ActionSheet itself; on React 19 it needs createRoot handed in. */
export function installAntdRender(): void {
  unstableSetRender((node, container: Container) => {
    container._bourseRoot ??= createRoot(container);
    const root = container._bourseRoot;
    root.render(node);
    return async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      root.unmount();
      delete container._bourseRoot;
    };
  });
}

/**
 * Tells the HTTP client which pages are public, and reloads after a forced logout, as the spec's
 * logout does (§4): every cached user datum goes with the page, and the route guard then sends a
 * private page to /login.
 */
export function installHttpHooks(): void {
  configureHttp({
    isPublicPath,
    onSessionEnded: () => window.location.reload(),
  });
}

/**
 * Takes the message a forced logout kept across its reload (see `keepNoticeForNextLoad`) and
 * answers what shows it once the app is up. Called before anything of this load can send a
 * request: a page's first request (its prefetch) may end the session before the app has started,
 * and the message it keeps is the next load's to show, not this one's to take.
 */
export function takeNoticeFromLastLoad(): () => void {
  const notice = takeStoredNotice();
  return () => {
    if (notice) showToast(notice);
  };
}

/**
 * How long after start the deferred code (Toast and its animation library, the service worker's
 * registration) is fetched anyway.
 */
const DEFERRED_LOAD_MS = 4000;

/**
 * Code the first page does not need is fetched at the first touch or key press, or a few seconds
 * after start, whichever comes first; so a message shows at once even if the network drops later.
 */
export function loadDeferredCode(): void {
  const events = ['pointerdown', 'keydown', 'touchstart'] as const;
  let timer = 0;
  const load = () => {
    window.clearTimeout(timer);
    for (const name of events) window.removeEventListener(name, load, true);
    preloadToast();
    // why: the worker's install fetches the whole app shell for later; it waits until the first
    // screen is up and its data in, like the rest of the deferred code.
    void import('./pwa.ts').then((pwa) => pwa.registerServiceWorker());
  };
  for (const name of events)
    window.addEventListener(name, load, { capture: true, passive: true, once: true });
  timer = window.setTimeout(load, DEFERRED_LOAD_MS);
}

/** Lets page modules start their first requests as their code arrives (their `prefetch`). */
export function installPagePrefetch(): void {
  setPageQueryClient(queryClient);
}

/**
 * Starts fetching the page of the entry URL right away, in parallel with the language resources;
 * resolves when it is in (or failed: the route then loads it again and shows its error).
 */
export function preloadEntryPage(hash: string): Promise<unknown> {
  const path = hash.replace(/^#/, '').split('?')[0] || '/';
  const key = path === '/' ? PATHS.markets.toLowerCase() : path.toLowerCase();
  const page = APP_ROUTES.find((route) => route.path.toLowerCase() === key)?.page;
  return page ? page().catch(() => undefined) : Promise.resolve();
}
