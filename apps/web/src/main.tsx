import 'antd-mobile/es/global';
import './shared/theme/theme.css';
import './shared/theme/app.css';
// why: the frame index.html paints before any script (app/boot/frame.html) is the market list's:
// its styles, and the skeleton's, are in the first stylesheet so that frame is drawn as the page.
import 'antd-mobile/es/components/skeleton/skeleton.css';
import './features/markets/components/markets.css';
import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { installAntdLocale } from './app/antd-locale.ts';
import { App } from './app/app.tsx';
import {
  installAntdRender,
  installHttpHooks,
  installPagePrefetch,
  installZodConfig,
  loadDeferredCode,
  preloadEntryPage,
  takeNoticeFromLastLoad,
} from './app/setup.ts';
import { initI18n } from './shared/i18n/i18n.ts';
import { captureInstallPrompt } from './shared/install-prompt.ts';
import { installUpDownMode } from './shared/preferences/up-down.ts';
import { captureInviteCode } from './shared/storage.ts';

// why: first, before any request of this load can end the session and keep a message of its own.
const showNoticeFromLastLoad = takeNoticeFromLastLoad();
captureInviteCode(window.location);
// why: the browser offers installation once, as early as the page loads; kept for the download page.
captureInstallPrompt();
installZodConfig();
installAntdRender();
installHttpHooks();
installPagePrefetch();
// why: the entry page's code downloads while the language resources do.
const entryPage = preloadEntryPage(window.location.hash);

async function start(): Promise<void> {
  // why: the first render is the entry page itself, never a loading state between the frame
  // index.html painted and the page.
  const [locale] = await Promise.all([initI18n(), entryPage]);
  installUpDownMode();
  installAntdLocale(locale);
  const root = createRoot(document.getElementById('root')!);
  // why: a transition renders in slices that yield to the browser (a slow phone stays responsive
  // while the first page renders); the frame index.html painted stays until the page commits.
  startTransition(() => root.render(<App />));
  showNoticeFromLastLoad();
  loadDeferredCode();
}

start();
