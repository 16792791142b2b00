import 'antd-mobile/es/global';
import './shared/theme/theme.css';
import './shared/theme/app.css';
import { createRoot } from 'react-dom/client';
import { installAntdLocale } from './app/antd-locale.ts';
import { App } from './app/app.tsx';
import {
  installAntdRender,
  installHttpHooks,
  installZodConfig,
  loadDeferredCode,
  preloadEntryPage,
  showNoticeFromLastLoad,
} from './app/setup.ts';
import { initI18n } from './shared/i18n/i18n.ts';
import { installUpDownMode } from './shared/preferences/up-down.ts';
import { captureInviteCode } from './shared/storage.ts';

captureInviteCode(window.location);
installZodConfig();
installAntdRender();
installHttpHooks();
// why: the entry page's code downloads while the language resources do.
preloadEntryPage(window.location.hash);

async function start(): Promise<void> {
  const locale = await initI18n();
  installUpDownMode();
  installAntdLocale(locale);
  createRoot(document.getElementById('root')!).render(<App />);
  showNoticeFromLastLoad();
  loadDeferredCode();
}

start();
