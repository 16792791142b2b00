import { useTranslation } from 'react-i18next';

/**
 * Formats a unix-millisecond time in the user's language and time zone; `medium` shows the
 * seconds too (a contract's opening and closing), `short` stops at the minute (bills).
 */
export function useFormatTime(
  timeStyle: 'short' | 'medium' = 'short',
): (ms: number | null | undefined) => string {
  const { i18n } = useTranslation();
  const formatter = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle });
  return (ms) => (ms ? formatter.format(ms) : '—');
}
