import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from './en-US.json';
import zhCN from './zh-CN.json';

/** The back office's languages; add a resource file and a line here for more. */
export const ADMIN_LANGUAGES = { 'en-US': 'English', 'zh-CN': '简体中文' } as const;
export type AdminLanguage = keyof typeof ADMIN_LANGUAGES;

const STORAGE_KEY = 'bourse.admin.lang';

export function initialLanguage(): AdminLanguage {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (saved === 'en-US' || saved === 'zh-CN') return saved;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en-US';
}

export function rememberLanguage(lang: AdminLanguage): void {
  localStorage.setItem(STORAGE_KEY, lang);
}

void i18n.use(initReactI18next).init({
  resources: { 'en-US': { translation: enUS }, 'zh-CN': { translation: zhCN } },
  lng: initialLanguage(),
  fallbackLng: 'en-US',
  // why: React escapes what it renders; i18next must not escape a second time.
  interpolation: { escapeValue: false },
});
