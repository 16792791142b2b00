import type { Locale } from '@bourse/i18n';
import { getDefaultConfig, setDefaultConfig } from 'antd-mobile/es/components/config-provider';
import type { Locale as AntdLocale } from 'antd-mobile/es/locales/base';
import { onLocaleChange } from '../shared/i18n/i18n.ts';

// why: antd-mobile bundles zh-CN as its default anyway; importing it again would only warn.
const BUILT_IN_ZH_CN = getDefaultConfig().locale;

/** antd-mobile's own texts (action sheets, dialogs, pickers) for each of our locales. */
const ANTD_LOCALES: Record<Locale, () => Promise<{ default: AntdLocale }>> = {
  'zh-CN': async () => ({ default: BUILT_IN_ZH_CN }),
  'en-US': () => import('antd-mobile/es/locales/en-US'),
  'fr-FR': () => import('antd-mobile/es/locales/fr-FR'),
  'de-DE': () => import('antd-mobile/es/locales/de-DE'),
  'it-IT': () => import('antd-mobile/es/locales/it-IT'),
  'ja-JP': () => import('antd-mobile/es/locales/ja-JP'),
  'ko-KR': () => import('antd-mobile/es/locales/ko-KR'),
  'tr-TR': () => import('antd-mobile/es/locales/tr-TR'),
  'zh-TW': () => import('antd-mobile/es/locales/zh-TW'),
};

async function applyAntdLocale(locale: Locale): Promise<void> {
  const { default: antdLocale } = await ANTD_LOCALES[locale]();
  // why: a global default reaches the components antd-mobile renders imperatively
  // (ActionSheet.show, Dialog), which a context provider would not.
  setDefaultConfig({ locale: antdLocale });
}

/**
 * Keeps antd-mobile's language in step with ours. Nothing on the first screen shows antd-mobile
 * texts, so this loads alongside the first page instead of before it.
 */
export function installAntdLocale(initial: Locale): void {
  applyAntdLocale(initial).catch(() => undefined);
  onLocaleChange((locale) => {
    applyAntdLocale(locale).catch(() => undefined);
  });
}
