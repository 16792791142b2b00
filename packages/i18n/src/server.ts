import deDE from '../resources/server/de-DE.json' with { type: 'json' };
import enUS from '../resources/server/en-US.json' with { type: 'json' };
import frFR from '../resources/server/fr-FR.json' with { type: 'json' };
import itIT from '../resources/server/it-IT.json' with { type: 'json' };
import jaJP from '../resources/server/ja-JP.json' with { type: 'json' };
import koKR from '../resources/server/ko-KR.json' with { type: 'json' };
import trTR from '../resources/server/tr-TR.json' with { type: 'json' };
import zhCN from '../resources/server/zh-CN.json' with { type: 'json' };
import zhTW from '../resources/server/zh-TW.json' with { type: 'json' };
import { DEFAULT_LOCALE, type Locale, lookupText, type TextTree } from './index.ts';

/** Server message resources by locale (API `msg` texts). */
export const SERVER_RESOURCES: Record<Locale, TextTree> = {
  'zh-CN': zhCN,
  'en-US': enUS,
  'fr-FR': frFR,
  'de-DE': deDE,
  'it-IT': itIT,
  'ja-JP': jaJP,
  'ko-KR': koKR,
  'tr-TR': trTR,
  'zh-TW': zhTW,
};

/** Translates a server message key, falling back to ja-JP, then to the key itself. */
export function translateServer(
  locale: Locale,
  key: string,
  params?: Record<string, string | number>,
): string {
  const text =
    lookupText(SERVER_RESOURCES[locale], key) ?? lookupText(SERVER_RESOURCES[DEFAULT_LOCALE], key) ?? key;
  if (!params) return text;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}
